import Foundation

/// Where the holdings book is kept: `<directory>/holdings.json`, in the state directory beside the
/// watchlist, with its lock file beside it.
public struct ManualHoldingsFile: Sendable, Hashable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public var url: URL { directory.appendingPathComponent("holdings.json", isDirectory: false) }

    /// Imports from several processes serialize on this file; the book itself is replaced by rename on
    /// every write, so it cannot carry the lock.
    var lockURL: URL { directory.appendingPathComponent("holdings.lock", isDirectory: false) }
}
