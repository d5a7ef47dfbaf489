/// A file operation behind the holdings book that failed: what, on which path, the system's reason and
/// what to do.
public struct HoldingsFileError: Error, Sendable, Hashable, CustomStringConvertible {
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

    public init(operation: Operation, path: String, reason: String) {
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    /// The same failure from the file primitives the watchlist and the book share (`WatchlistDisk`),
    /// without the watchlist's advice.
    init(_ disk: WatchlistStoreError) {
        let operation: Operation = switch disk.operation {
        case .createDirectory: .createDirectory
        case .read: .read
        case .write: .write
        case .lock: .lock
        case .rename: .rename
        }
        self.init(operation: operation, path: disk.path, reason: disk.reason)
    }

    public var hint: String {
        switch operation {
        case .read: "check that the file exists and that you may read it"
        case .createDirectory, .write, .lock, .rename: "check that the directory exists and that you may write to it"
        }
    }

    public var description: String {
        "cannot \(operation.rawValue) \(path): \(reason); \(hint)"
    }
}
