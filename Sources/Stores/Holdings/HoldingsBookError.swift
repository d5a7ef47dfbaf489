/// Why the holdings book on disk cannot be used.
public enum HoldingsBookError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file is not a book (`reason` says how). `movedTo` is where an import moved it, so that the next
    /// import starts a new book; nil when it was only read, and left in place.
    case corrupt(path: String, reason: String, movedTo: String?)
    /// Written by a newer commonbroker, in a version this one does not read; left as it is.
    case newerVersion(path: String, version: Int)
    case file(HoldingsFileError)

    public var description: String {
        switch self {
        case .corrupt(let path, let reason, let movedTo?):
            "cannot use the holdings book \(path) (\(reason)); moved it to \(movedTo) and imported nothing: "
                + "run the import again to start a new book, or repair that file and move it back"
        case .corrupt(let path, let reason, nil):
            "cannot use the holdings book \(path) (\(reason)); repair it, or move it away and import your lots "
                + "again (the next import moves it aside for you)"
        case .newerVersion(let path, let version):
            "the holdings book \(path) is version \(version), which only a newer commonbroker reads "
                + "(this one reads version \(ManualHoldingsDocument.currentVersion)); use the newer commonbroker"
        case .file(let error):
            error.description
        }
    }
}
