import Domain
import Foundation
import TextSafety

/// For measurement only: gives each key, on its first quote, a history as full as 30 minutes of trading
/// would have made it, so that a benchmark of a few seconds measures the memory and drawing of the app's
/// steady state (issue 18: RSS ≤ 50 MB at 4 × 500 rows *with full histories*).
///
/// Why in the app and not in a fixture: `QuoteStore` records prices at the app's clock when they arrive
/// (`receivedAt`), never at the broker's trade time, so no burst of back-dated trades from a fixture can
/// fill a history; only 30 minutes of wall time can. The product is unchanged unless the environment
/// variable `COMMONBROKER_TEST_HISTORY_MINUTES` asks for it (`InteractiveCommand` reads it).
///
/// The points are what a live cent-priced row leaves: one a second, ending a second before the first
/// quote and leading up to its price in a walk of at most a cent a step (deterministic per key), so the
/// history is stored in its narrow form as a real one is, and holds exactly the same number of points.
public struct HistoryBackfill: Sendable, Hashable {
    /// How far back the points go, one a second (the history keeps at most `PriceHistory.capacity`).
    public let seconds: Int

    /// The environment variable that turns it on, with the minutes of history (1…30).
    public static let environmentVariable = "COMMONBROKER_TEST_HISTORY_MINUTES"

    public init(seconds: Int = PriceHistory.capacity) {
        self.seconds = max(0, seconds)
    }

    public struct EnvironmentError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The backfill the environment asks for: nil when the variable is unset or empty.
    public static func from(environment: [String: String]) -> Result<HistoryBackfill?, EnvironmentError> {
        guard let text = environment[environmentVariable], !text.isEmpty else { return .success(nil) }
        let limit = PriceHistory.capacity / 60
        guard let minutes = Int(text), (1...limit).contains(minutes) else {
            return .failure(EnvironmentError(description:
                "\(environmentVariable)=\(VisibleText.escaped(text)) is not a number of minutes from 1 to \(limit); "
                + "it is for benchmarks only (each row starts with that much price history): unset it for normal use"))
        }
        return .success(HistoryBackfill(seconds: minutes * 60))
    }

    /// The points before a key's first quote, oldest first: one a second from `seconds` before `end` to a
    /// second before it, the newest a cent or less from `price`. `seed` picks the walk (use `seed(for:)`).
    public func points(before end: Date, leadingTo price: ExactDecimal, seed: UInt64) -> [(time: Date, price: ExactDecimal)] {
        guard seconds > 0 else { return [] }
        let cent = ExactDecimal.unitsPerOne / 100
        var random = SplitMix64(seed: seed)
        var units = price.units
        var newestFirst: [Int64] = []
        newestFirst.reserveCapacity(seconds)
        for _ in 0..<seconds {
            // -1, 0 or +1 cent; never at or below zero, so a penny stock's walk turns up instead.
            let step = Int64(random.next() % 3) - 1
            units = units + step * cent > 0 ? units + step * cent : units + cent
            newestFirst.append(units)
        }
        let start = end.timeIntervalSinceReferenceDate.rounded(.down) - Double(seconds)
        return newestFirst.reversed().enumerated().map { offset, units in
            (Date(timeIntervalSinceReferenceDate: start + Double(offset)), ExactDecimal(units: units))
        }
    }

    /// A seed that is the same for a key on every run (`Hasher` is seeded per process): FNV-1a over the
    /// broker's id and the symbol.
    public static func seed(for key: QuoteKey) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.brandID.utf8 + [0] + key.symbol.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
