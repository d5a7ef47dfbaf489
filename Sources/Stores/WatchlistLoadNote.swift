/// Something worth telling the user after loading.
public enum WatchlistLoadNote: Sendable, Hashable, CustomStringConvertible {
    /// The file could not be parsed; it was renamed to `movedTo` (full path) and the seed symbols are used.
    case corruptFileMovedAside(path: String, movedTo: String, reason: String)
    /// Some alert entries could not be read; they stay in the file as they are (written back untouched),
    /// and everything else loaded.
    case unreadableAlerts(path: String, problems: [String])

    public var description: String {
        switch self {
        case .corruptFileMovedAside(let path, let movedTo, let reason):
            "could not use the watchlist \(path) (\(reason)); moved it to \(movedTo)"
        case .unreadableAlerts(let path, let problems):
            "could not read \(problems.count == 1 ? "an alert" : "\(problems.count) alerts") in \(path): "
                + problems.joined(separator: "; ")
                + "; kept in the file as written: fix or remove \(problems.count == 1 ? "it" : "them") there (the lists and other alerts work)"
        }
    }
}
