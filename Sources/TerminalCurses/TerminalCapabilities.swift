import Locking
import TerminalKit
import CNcursesw

/// What terminfo says a terminal type can do, as far as drawing a full-screen table needs: checked before
/// curses starts, because on a terminal that cannot move the cursor (TERM=dumb) curses "works" and draws
/// one frozen line that is left behind on exit.
public struct TerminalCapabilities: Sendable, Hashable {
    /// terminfo's `cup`: the cursor can be moved to any row and column.
    public var canAddressCursor: Bool
    /// `hc`: a printing terminal, nothing on paper can be redrawn.
    public var isHardcopy: Bool
    /// `gn`: a generic type (dumb, network, unknown) that says nothing about the real terminal.
    public var isGeneric: Bool

    public init(canAddressCursor: Bool, isHardcopy: Bool = false, isGeneric: Bool = false) {
        self.canAddressCursor = canAddressCursor
        self.isHardcopy = isHardcopy
        self.isGeneric = isGeneric
    }

    /// Whether the watchlist can be drawn at all.
    public var canDrawFullScreen: Bool { canAddressCursor && !isHardcopy && !isGeneric }

    /// Why the session must not start on a terminal of type `term` with `capabilities` (nil: unknown to
    /// terminfo), or nil if it can.
    public static func refusal(term: String?, capabilities: TerminalCapabilities?) -> TerminalError? {
        guard let term, !term.isEmpty, let capabilities else { return .unsupportedTerminal(term: term) }
        return capabilities.canDrawFullScreen ? nil : .cannotAddressCursor(term: term)
    }

    /// Reads `term`'s entry from terminfo without starting curses (cb_terminfo_probe puts curses' current
    /// terminal back): nil if terminfo does not know it. The lock keeps two probes (parallel tests) from
    /// swapping each other's current terminal.
    public static func lookUp(term: String) -> TerminalCapabilities? {
        probeLock.withLock { _ in
            var hasCup: Int32 = 0
            var hardcopy: Int32 = 0
            var generic: Int32 = 0
            guard cb_terminfo_probe(term, &hasCup, &hardcopy, &generic) == 0 else { return nil }
            return TerminalCapabilities(canAddressCursor: hasCup != 0, isHardcopy: hardcopy != 0, isGeneric: generic != 0)
        }
    }

    private static let probeLock = Locked(())
}
