import Foundation

/// Where the watchlist is persisted: `<directory>/watchlist.json`, with its lock file beside it.
public struct WatchlistFile: Sendable, Hashable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public var url: URL { directory.appendingPathComponent("watchlist.json", isDirectory: false) }

    /// Edits from several running instances serialize on this file; the watchlist itself is replaced
    /// by rename on every write, so it cannot carry the lock.
    var lockURL: URL { directory.appendingPathComponent("watchlist.lock", isDirectory: false) }
}
