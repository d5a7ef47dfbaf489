import Foundation

/// Share-class symbols: users and most feeds write `BRK.B`, Tradier writes `BRK/B` (reference §1.2;
/// Lumiwealth's lumiwealth-tradier rewrites `.` to `/` before sending, and Tradier's own quotes and
/// option roots use the slash).
public enum TradierSymbol {
    /// Tradier's spelling of a normalised symbol.
    public static func wire(_ symbol: String) -> String {
        symbol.replacingOccurrences(of: ".", with: "/")
    }

    /// The usual spelling of a symbol Tradier wrote (`BRK/B` → `BRK.B`), for orders and positions read back.
    public static func domain(_ wire: String) -> String {
        wire.replacingOccurrences(of: "/", with: ".")
    }
}
