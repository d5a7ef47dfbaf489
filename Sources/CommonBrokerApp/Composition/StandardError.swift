#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Messages for the user that are not program output.
enum StandardError {
    static func write(_ text: String) {
        var line = text
        if !line.hasSuffix("\n") { line += "\n" }
        fputs(line, stderr)
    }
}
