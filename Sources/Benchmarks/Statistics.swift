/// Summaries over repeated runs: this machine is noisy, so every figure reported is a median.
enum Statistics {
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The median of the values that exist; nil when no run produced one.
    static func median(_ values: [Double?]) -> Double? { median(values.compactMap { $0 }) }
}
