/// Something worth telling the user after loading.
public enum WatchlistLoadNote: Sendable, Hashable, CustomStringConvertible {
    /// The file could not be parsed; it was renamed to `movedTo` (full path) and the seed symbols are used.
    case corruptFileMovedAside(path: String, movedTo: String, reason: String)

    public var description: String {
        switch self {
        case .corruptFileMovedAside(let path, let movedTo, let reason):
            "could not use the watchlist \(path) (\(reason)); moved it to \(movedTo)"
        }
    }
}
