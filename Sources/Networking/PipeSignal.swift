#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGPIPE on the socket threads. OpenSSL writes with write(2), which raises SIGPIPE on a dead peer (and a
/// TLS read may write: a key update's answer). Blocked on the calling thread only, the signal stays
/// pending there and the write fails with EPIPE instead of killing the app.
enum PipeSignal {
    /// Called first thing by every thread that reads or writes sockets: the I/O loops, HTTP exchanges and
    /// the slot reader.
    static func blockOnThisThread() {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
    }
}
