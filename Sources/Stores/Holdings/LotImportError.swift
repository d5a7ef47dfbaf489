import Foundation
import TextSafety

/// Why `ManualHoldings.importLots` imported nothing. `lines` is what to tell the user, one message a line.
public enum LotImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The CSV file itself could not be read.
    case unreadableFile(HoldingsFileError)
    /// The file has errors, each at its line and column.
    case rejected(LotsFileRejection)
    /// A file with the same bytes was imported before (`previous`); `file` is the one given now.
    case alreadyImported(file: String, previous: ManualImport)
    /// The book on disk cannot be used.
    case book(HoldingsBookError)
    /// With this file's lots, a holding's totals would leave the range `ExactDecimal` holds.
    case totalsOutOfRange(file: String, ManualHoldingsBook.TotalsError)

    public var lines: [String] {
        switch self {
        case .unreadableFile(let error): [error.description]
        case .rejected(let rejection): rejection.lines
        case .alreadyImported(let file, let previous):
            ["\(VisibleText.escaped(file)) was already imported on \(Self.dateText(previous.importedAt)) "
                + "(\(previous.lots.count) lot\(previous.lots.count == 1 ? "" : "s") from \(VisibleText.escaped(previous.file)), "
                + "same bytes: sha256 \(previous.sha256.prefix(12))…); nothing imported; "
                + "to add its lots a second time, run the import again with --again"]
        case .book(let error): [error.description]
        case .totalsOutOfRange(let file, let error):
            ["\(VisibleText.escaped(file)): \(error); nothing imported; check the quantities and prices of \(error.symbol)"]
        }
    }

    public var description: String { lines.joined(separator: "\n") }

    /// `2026-03-05 14:07 UTC`: precise enough to recognise an import, and the same for every reader.
    private static func dateText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : "\(value ?? 0)" }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)) UTC"
    }
}
