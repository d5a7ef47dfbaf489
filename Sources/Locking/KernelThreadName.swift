#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Names the calling thread where `top -H`, `perf` and /proc show it. Foundation's `Thread.name` does
/// not reach the kernel on Linux, so every thread the app starts was "com.apple.root.default-qos" or
/// nothing there, and a profile could not tell the UI thread from a socket's. Glibc's module does not
/// export pthread_setname_np, whose work this is; the kernel keeps 15 bytes.
public enum KernelThreadName {
    public static let maximumBytes = 15

    public static func setForCurrentThread(_ name: String) {
        #if os(Linux)
        let bytes = Array(truncated(name).utf8)
        let file = open("/proc/thread-self/comm", O_WRONLY)
        guard file >= 0 else { return }
        _ = bytes.withUnsafeBufferPointer { write(file, $0.baseAddress, $0.count) }
        close(file)
        #elseif canImport(Darwin)
        _ = pthread_setname_np(truncated(name))
        #endif
    }

    /// At most `maximumBytes` of UTF-8, cut between characters.
    static func truncated(_ name: String) -> String {
        var kept = ""
        var count = 0
        for character in name {
            let size = character.utf8.count
            guard count + size <= maximumBytes else { break }
            kept.append(character)
            count += size
        }
        return kept
    }
}
