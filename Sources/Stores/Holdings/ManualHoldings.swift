import Domain
import Foundation

/// Holdings kept elsewhere, as a position service: the positions screen shows them beside the brokers'
/// under "Held elsewhere". It reads `holdings.json` at every call, so an import from another process
/// shows at the next refresh; `importLots` is the only writer.
///
/// It lives in Stores, not BrokerAdapters: it talks to no broker, only to a file in the state
/// directory, with the same atomic, locked writes as the watchlist (`WatchlistDisk`).
public struct ManualHoldings: PositionService {
    public static let branding = ServiceBranding(id: "manual", name: "Held elsewhere", glyph: "H", color: .white)

    public var branding: ServiceBranding { Self.branding }
    public let file: ManualHoldingsFile
    private let now: @Sendable () -> Date
    /// Decides what "today" is for the latest date a lot may have.
    private let calendar: Calendar

    public init(file: ManualHoldingsFile) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        self.init(file: file, now: { Date() }, calendar: calendar)
    }

    /// `now` stamps imports and moved-aside files; tests pin it and the calendar's time zone.
    init(file: ManualHoldingsFile, now: @escaping @Sendable () -> Date, calendar: Calendar) {
        self.file = file
        self.now = now
        self.calendar = calendar
    }

    /// The book on disk; an empty one when there is no file yet. A corrupt file is reported and left where
    /// it is (only an import moves it aside).
    public func book() throws(HoldingsBookError) -> ManualHoldingsBook {
        let data: Data?
        do {
            data = try WatchlistDisk.contents(of: file.url)
        } catch {
            throw .file(HoldingsFileError(error))
        }
        guard let data else { return ManualHoldingsBook() }
        switch ManualHoldingsDocument.book(from: data) {
        case .success(let book): return book
        case .failure(.corrupt(let reason)): throw .corrupt(path: file.url.path, reason: reason, movedTo: nil)
        case .failure(.newerVersion(let version)): throw .newerVersion(path: file.url.path, version: version)
        }
    }

    /// The open positions with their broker labels (see `ManualHoldingsBook.positions()`).
    public func labelledPositions() throws(HoldingsBookError) -> [ManualPosition] {
        let book = try book()
        do {
            return try book.positions()
        } catch {
            // `book()` checked the totals; the file changed in between.
            throw .corrupt(path: file.url.path, reason: error.description, movedTo: nil)
        }
    }

    /// One position per (broker label, symbol), all under the id "manual". A book that cannot be read is
    /// this "broker"'s failure, with the reason, like a broker's bad answer.
    public func positions() async throws(BrokerError) -> [Position] {
        do {
            return try labelledPositions().map { $0.position(brokerID: branding.id) }
        } catch {
            throw .badResponse(error.description)
        }
    }

    /// Reads the CSV file at `path` and adds its lots to the book (see `importLots(_:file:path:again:)`).
    /// `path` is shown in messages as given; the book records it made absolute.
    public func importLots(fromFileAt path: String, again: Bool) throws(LotImportError) -> LotImportSummary {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let read: Data?
        do {
            read = try WatchlistDisk.contents(of: URL(fileURLWithPath: absolute))
        } catch {
            throw .unreadableFile(HoldingsFileError(operation: .read, path: path, reason: error.reason))
        }
        guard let data = read else {
            throw .unreadableFile(HoldingsFileError(operation: .read, path: path, reason: "No such file or directory"))
        }
        return try importLots(data, file: path, path: URL(fileURLWithPath: absolute).standardizedFileURL.path, again: again)
    }

    /// Adds the lots of the CSV text `data` to the book, all or none, or says why not:
    /// every error in the file (`.rejected`), a file with the same bytes imported before unless `again`
    /// (`.alreadyImported`), a book that cannot be read (a corrupt one is moved aside, as the watchlist
    /// does, and nothing is imported: the user decides whether to start a new book), totals out of range.
    /// The book is re-read and written under its lock, atomically, so two imports at once both land.
    func importLots(_ data: Data, file name: String, path: String, again: Bool) throws(LotImportError) -> LotImportSummary {
        let today = TradeDate(now(), in: calendar)
        let lots: [ManualLot]
        switch LotsCSV.lots(in: data, file: name, today: today) {
        case .success(let read): lots = read
        case .failure(let rejection): throw .rejected(rejection)
        }
        let sha256 = SHA256Digest.hex(of: data)
        let importedAt = Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down))
        let outcome: Result<(book: ManualHoldingsBook, again: Bool), LotImportError>
        do {
            try WatchlistDisk.ensureDirectory(file.directory)
            outcome = try WatchlistDisk.withExclusiveLock(file.lockURL) { () throws(WatchlistStoreError) in
                var book = ManualHoldingsBook()
                if let existing = try WatchlistDisk.contents(of: file.url) {
                    switch ManualHoldingsDocument.book(from: existing) {
                    case .success(let found):
                        book = found
                    case .failure(.newerVersion(let version)):
                        return .failure(.book(.newerVersion(path: file.url.path, version: version)))
                    case .failure(.corrupt(let reason)):
                        let movedTo = try WatchlistDisk.moveAside(file.url, stamp: WatchlistStore.stamp(now()))
                        return .failure(.book(.corrupt(path: file.url.path, reason: reason, movedTo: movedTo.path)))
                    }
                }
                let previous = book.latestImport(sha256: sha256)
                if let previous, !again {
                    return .failure(.alreadyImported(file: name, previous: previous))
                }
                book.append(ManualImport(sha256: sha256, file: path, importedAt: importedAt, lots: lots))
                do throws(ManualHoldingsBook.TotalsError) {
                    _ = try book.positions()
                } catch {
                    return .failure(.totalsOutOfRange(file: name, error))
                }
                try WatchlistDisk.writeAtomically(ManualHoldingsDocument.encoded(book), to: file.url)
                return .success((book, previous != nil))
            }
        } catch {
            throw .book(.file(HoldingsFileError(error)))
        }
        switch outcome {
        case .failure(let error):
            throw error
        case .success(let (book, importedBefore)):
            return LotImportSummary(
                file: name, lotCount: lots.count, symbolCount: Set(lots.map(\.symbol)).count,
                bookPath: file.url.path, bookLotCount: book.lots.count, wasImportedBefore: importedBefore)
        }
    }
}
