import Stores
import TextSafety

/// Why the paper broker cannot start, or stopped: its ledger cannot be read or written, or says
/// something that does not add up. The description says what is wrong, where, and what to do; the
/// ledger file is never changed by such an error.
public enum PaperBrokerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The journal refused: a damaged line in the middle (with its number), the lock held too long, a
    /// system call that failed.
    case ledger(JournalError)
    /// An intact line of the ledger at `path` contradicts the lines before it.
    case inconsistent(PaperLedgerInconsistency, path: String)

    public var description: String {
        let fresh = "or give the paper broker another ledger file in the config to start a new paper account"
        switch self {
        case .ledger(let error):
            switch error {
            case .corrupt:
                return "paper trading is off: \(error); \(fresh)"
            default:
                return "paper trading is off: \(error)"
            }
        case .inconsistent(let inconsistency, let path):
            return "paper trading is off: the ledger \(VisibleText.escaped(path)) \(VisibleText.escaped(inconsistency.description)). "
                + "Nothing was changed; the file is kept as it is. Remove or repair line \(inconsistency.line) with an editor, "
                + "restore the file from a backup, \(fresh)"
        }
    }
}
