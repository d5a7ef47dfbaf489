import Domain
import Foundation

/// How a benchmark quote carries what the measurement needs inside an ordinary `CommonQuote`, so
/// both hubs move exactly the type they move in the app: `volume` is the global sequence number,
/// `bid` the monotonic nanosecond at which the producer handed it in (as the decimal's raw units: a
/// nanosecond count since boot is far below the 9×10¹⁸ units it holds), `previousClose` the index of
/// its symbol. `last` is a price that moves with the sequence, a cent a step.
enum BenchQuote {
    static let epoch = Date(timeIntervalSince1970: 1_731_528_912)

    static func symbol(_ index: Int) -> String { "S\(index)" }

    static func make(sequence: Int64, symbolIndex: Int, symbol: String, sentAt: UInt64) -> CommonQuote {
        CommonQuote(
            symbol: symbol, last: ExactDecimal(units: (10_000 + sequence % 10_000) * 1_000_000), timestamp: epoch,
            bid: ExactDecimal(units: Int64(sentAt)), ask: nil, previousClose: ExactDecimal(symbolIndex), volume: sequence
        )
    }

    static func sequence(of quote: CommonQuote) -> Int64 { quote.volume ?? -1 }
    static func sentAt(of quote: CommonQuote) -> UInt64 { UInt64(quote.bid?.units ?? 0) }
    static func symbolIndex(of quote: CommonQuote) -> Int { Int((quote.previousClose?.units ?? 0) / ExactDecimal.unitsPerOne) }
}
