/// A watchlist file operation that failed: what, on which path, the system's reason and what to do.
public struct WatchlistStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Operation: String, Sendable, Hashable {
        case createDirectory = "create directory"
        case read
        case write
        case lock
        case rename
    }

    public var operation: Operation
    public var path: String
    /// The operating system's text for the error, e.g. "Permission denied".
    public var reason: String
    /// The `errno` behind `reason`, when there was one.
    public var code: Int32?

    public init(operation: Operation, path: String, reason: String, code: Int32? = nil) {
        self.operation = operation
        self.path = path
        self.reason = reason
        self.code = code
    }

    /// What the user can do about it.
    public var hint: String {
        switch operation {
        case .read:
            "check the file's permissions, or start with --symbols to use a watchlist for this run only"
        case .createDirectory, .write, .lock, .rename:
            "check that the directory exists and is writable, or start with --symbols to skip saving"
        }
    }

    public var description: String {
        "cannot \(operation.rawValue) \(path): \(reason); \(hint)"
    }
}
