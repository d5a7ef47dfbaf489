import Foundation

/// Number formats of the table.
enum Format {
    static func rate(_ value: Double) -> String {
        switch value {
        case 1_000_000...: String(format: "%.2fM", value / 1_000_000)
        case 10_000...: String(format: "%.0fk", value / 1_000)
        case 1_000...: String(format: "%.1fk", value / 1_000)
        default: String(format: "%.0f", value)
        }
    }

    static func microseconds(_ value: Double) -> String {
        switch value {
        case 1_000_000...: String(format: "%.2f s", value / 1_000_000)
        case 1_000...: String(format: "%.1f ms", value / 1_000)
        default: String(format: "%.0f µs", value)
        }
    }

    static func milliseconds(_ value: Double) -> String {
        abs(value) < 1 ? String(format: "%.3f ms", value) : String(format: "%.1f ms", value)
    }

    static func ratio(_ value: Double) -> String {
        value >= 10 ? String(format: "%.0f×", value) : String(format: "%.2f×", value)
    }

    static func bytes(_ value: Double) -> String {
        switch abs(value) {
        case 1_048_576...: String(format: "%.1f MiB", value / 1_048_576)
        case 10_240...: String(format: "%.0f KiB", value / 1_024)
        default: String(format: "%.0f B", value)
        }
    }

    static func seconds(_ value: Double) -> String { String(format: "%g s", value) }

    static func percent(_ value: Double) -> String { String(format: "%.1f %%", value) }

    static func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
        let count = text.count
        guard count < width else { return text }
        let padding = String(repeating: " ", count: width - count)
        return right ? padding + text : text + padding
    }
}
