import Domain
import Foundation
import Stores

/// The detail screen's part of the update (Enter on a row, Esc or Enter back) and what it shows.
/// Its mode is `InputMode.detail`; its view is `DetailView`, its keys `KeyMap.detailAction`.
extension AppState {
    mutating func performDetailAction(_ action: WatchlistAction) {
        switch action {
        case .openDetail:
            guard let symbol = selectedRow?.key.symbol else { return }
            message = nil
            mode = .detail(symbol: symbol)
        case .closeDetail:
            mode = .normal
        default:
            break
        }
    }

    /// The symbol the detail view shows, across every broker, while it is open.
    var detail: SymbolDetail? {
        guard case .detail(let symbol) = mode else { return nil }
        return SymbolDetail(symbol: symbol, entries: brokers.map { broker in
            let key = QuoteKey(brandID: broker.id, symbol: symbol)
            let entry = quotes.entry(for: key)
            return SymbolDetail.Entry(
                branding: broker,
                quote: entry?.quote,
                error: Self.rowError(entry: entry, brokerState: statuses.state(for: broker.id)),
                state: statuses.state(for: broker.id) ?? .connecting,
                receivedAt: entry?.receivedAt,
                seenRange: entry?.history.range,
                history: entry?.history.points(since: .distantPast).map { PricePoint(time: $0.time, price: $0.price) } ?? [])
        })
    }

}
