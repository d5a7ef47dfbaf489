import TextSafety

/// Why a ledger could not be read or written: what failed, on which file, and what the user can do.
/// Paths and reasons are escaped for the terminal (`VisibleText`) in `description`.
public enum JournalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Line `line` (1-based) is damaged and is not the last line, or is complete but cannot be used
    /// (its sequence number is out of order, or its record does not decode). The file was left as it is.
    case corrupt(line: Int, reason: String, path: String)
    /// Another instance held the ledger's lock for longer than `waited`.
    case lockTimeout(path: String, waited: Duration)
    /// A system call failed: `reason` is the system's text for `code` (errno).
    case io(operation: Operation, path: String, reason: String, code: Int32)
    /// The file is shorter than what this instance already read from it: something other than a
    /// ledger truncated or replaced it.
    case shrunk(path: String, size: Int, alreadyRead: Int)
    /// The record cannot be written as JSON (JSONEncoder's reason, e.g. a Double that is not finite).
    case unencodable(reason: String)
    /// An earlier write or fsync failed, so what is on disk is no longer known; this instance refuses
    /// to go on (as databases do after a failed fsync) until it is opened again.
    case unusable(path: String, cause: String)

    public enum Operation: String, Sendable, Hashable {
        case createDirectory = "create the directory"
        case open
        case read
        case write
        case sync = "flush to disk"
        case lock
        case truncate
        case saveTornTail = "save the torn last line to"
    }

    public var description: String {
        switch self {
        case .corrupt(let line, let reason, let path):
            "the ledger \(Self.shown(path)) is damaged at line \(line): \(VisibleText.escaped(reason)). "
                + "Nothing was changed; the file is kept as it is. Repair or remove line \(line) with an editor "
                + "(one JSON record a line, see docs/ledger-format.md), or restore the file from a backup"
        case .lockTimeout(let path, let waited):
            "the ledger \(Self.shown(path)) stayed locked by another instance for \(waited.components.seconds) s; "
                + "try again, or quit the other instance if it is stuck"
        case .io(let operation, let path, let reason, _):
            "cannot \(operation.rawValue) \(Self.shown(path)): \(VisibleText.escaped(reason)); \(Self.hint(operation))"
        case .shrunk(let path, let size, let alreadyRead):
            "the ledger \(Self.shown(path)) is \(size) bytes, shorter than the \(alreadyRead) bytes already read from it: "
                + "another program truncated or replaced it; restore it, then restart"
        case .unencodable(let reason):
            "the record cannot be written as JSON: \(VisibleText.escaped(reason))"
        case .unusable(let path, let cause):
            "the ledger \(Self.shown(path)) is closed to further writes after an earlier failure (\(VisibleText.escaped(cause))); "
                + "restart to read it again from disk"
        }
    }

    private static func hint(_ operation: Operation) -> String {
        switch operation {
        case .createDirectory, .open, .saveTornTail:
            "check that the directory exists and is writable by you"
        case .read, .lock:
            "check the file's permissions"
        case .write, .sync, .truncate:
            "check the free space and that the disk is writable; the record was not saved"
        }
    }

    private static func shown(_ path: String) -> String { VisibleText.escaped(path) }
}
