import Foundation

/// One CSV file's lots as they were added to the holdings book, with the file's fingerprint so the
/// same file is not added twice by mistake.
public struct ManualImport: Sendable, Hashable, Codable {
    /// SHA-256 of the file's bytes, lowercase hex: what `sha256sum FILE` prints.
    public var sha256: String
    /// The file's absolute path when it was imported (for messages; the file may have moved since).
    public var file: String
    public var importedAt: Date
    /// In file order.
    public var lots: [ManualLot]

    public init(sha256: String, file: String, importedAt: Date, lots: [ManualLot]) {
        self.sha256 = sha256
        self.file = file
        self.importedAt = importedAt
        self.lots = lots
    }
}
