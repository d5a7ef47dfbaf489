/// Which way an order trades, in the four words US brokers use (Tradier's `side` values; Alpaca says only
/// `buy` / `sell` and infers opening a short from the position).
public enum OrderSide: String, Sendable, Hashable, Codable, CaseIterable {
    /// Buy to open or add to a long position.
    case buy
    /// Sell shares held long.
    case sell
    /// Sell shares not held, opening or adding to a short position.
    case sellShort = "sell_short"
    /// Buy back shares sold short.
    case buyToCover = "buy_to_cover"

    /// True for the sides that buy (`buy`, `buyToCover`): they pay the ask and add shares.
    public var isBuy: Bool {
        switch self {
        case .buy, .buyToCover: true
        case .sell, .sellShort: false
        }
    }

    /// Words for a ticket or a message: "buy", "sell", "sell short", "buy to cover".
    public var displayName: String {
        switch self {
        case .buy: "buy"
        case .sell: "sell"
        case .sellShort: "sell short"
        case .buyToCover: "buy to cover"
        }
    }
}
