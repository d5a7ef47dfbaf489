import TextSafety

/// Why nothing was imported from a lots file: every error found, in file order, the first
/// `LotsCSV.maximumReportedErrors` kept, and how many there were in all.
public struct LotsFileRejection: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    /// The first errors, in the order of the file.
    public var errors: [LotsFileError]
    /// All the errors found, including those not kept.
    public var totalCount: Int

    public init(file: String, errors: [LotsFileError], totalCount: Int) {
        self.file = file
        self.errors = errors
        self.totalCount = totalCount
    }

    /// One line per error, then how many were left out, then that nothing was imported.
    public var lines: [String] {
        var lines = errors.map(\.description)
        if totalCount > errors.count {
            lines.append("… and \(totalCount - errors.count) more")
        }
        let count = totalCount == 1 ? "1 error" : "\(totalCount) errors"
        lines.append("\(VisibleText.escaped(file)): \(count), nothing imported; fix the file and run the import again")
        return lines
    }

    public var description: String { lines.joined(separator: "\n") }
}
