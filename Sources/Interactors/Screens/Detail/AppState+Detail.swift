import Domain
import Foundation
import Stores

extension AppState {
    /// The symbol the detail screen shows, across every broker, read from the stores while it is in front.
    var detail: SymbolDetail? {
        guard case .detail(let screen) = front else { return nil }
        let symbol = screen.symbol
        return SymbolDetail(symbol: symbol, entries: brokers.map { broker in
            let key = QuoteKey(brandID: broker.id, symbol: symbol)
            let entry = quotes.entry(for: key)
            let history = quotes.history(for: key)
            return SymbolDetail.Entry(
                branding: broker,
                quote: entry?.quote,
                error: WatchlistRows.rowError(entry: entry, brokerState: statuses.state(for: broker.id)),
                state: statuses.state(for: broker.id) ?? .connecting,
                receivedAt: entry?.receivedAt,
                seenRange: history?.range,
                history: history?.points(since: .distantPast).map { PricePoint(time: $0.time, price: $0.price) } ?? [])
        })
    }
}
