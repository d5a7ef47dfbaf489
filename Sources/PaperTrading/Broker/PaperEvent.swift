import Domain

/// What changed in the paper account, as the broker publishes it (`PaperBroker.events`), for the app to
/// turn into its own events. Orders and fills another instance put in the shared ledger arrive here too.
public enum PaperEvent: Sendable, Hashable {
    /// An order was taken (here or by another instance); it is open.
    case placed(Order)
    /// A stop order's trigger printed; the order now works as a market or limit order.
    case triggered(Order)
    /// `order` filled by `fill`, which is on line `ledgerLine` of the ledger, written and flushed to disk.
    case filled(Order, Fill, ledgerLine: Int)
    /// Cancelled, or replaced (`order.status == .replaced`).
    case cancelled(Order)
    /// A day order reached its session's close unfilled.
    case expired(Order)
    /// An accepted order that could not be booked when it came to fill. (A refusal at `place` is thrown
    /// instead: such an order never exists.)
    case rejected(Order)
    /// `symbol`'s position after a fill or a new last price from the source; nil once it is flat. Only
    /// the quoted symbol's position is revalued on a quote.
    case positionChanged(symbol: String, Position?)
    /// Cash, equity, buying power or P&L changed.
    case accountChanged(PaperAccountSummary)
    /// For the status line, e.g. a torn last line of the ledger that was dropped.
    case notice(String)
    /// The ledger cannot be read or written any more (damaged by another program, disk full): the broker
    /// takes no more orders and fills nothing; the text says why and what to do.
    case halted(String)
}
