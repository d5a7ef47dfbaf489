import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Spawn attributes that start a child with no signal blocked and default handlers for the signals
/// tests send or that shells change.
///
/// The spawning thread blocks most signals (Dispatch's workers do, and threads they start inherit the
/// mask), and a child inherits that mask: a tmux server then never heard the SIGTERM of `kill-server`
/// and outlived every test run, and a Python peer ignored its stop.
enum SpawnSignals {
    static func withResetAttributes<Result>(_ body: (inout posix_spawnattr_t) throws -> Result) rethrows -> Result {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return try body(&attributes)
    }
}
