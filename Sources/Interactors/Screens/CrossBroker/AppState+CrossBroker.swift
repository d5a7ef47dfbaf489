import Domain
import Foundation
import Stores

extension AppState {
    /// `c`: one row per (symbol, broker) or one per symbol. The selection stays on its symbol.
    mutating func toggleRowMode(at now: Date) {
        let symbol = selectedRow?.key.symbol
        rowMode = rowMode.toggled
        rebuildRows()
        if let symbol { select(symbol: symbol) }
        switch rowMode {
        case .perSymbol: say(.info, "One row per symbol: the best bid and ask across brokers · c for one row per broker", at: now)
        case .perBroker: say(.info, "One row per broker · c for one row per symbol", at: now)
        }
    }

    /// The cross-broker figures of `symbol` now, from the stores.
    func crossBroker(of symbol: String, at now: Date) -> CrossBrokerQuote {
        CrossBrokerQuote(brokers.map { broker in
            let entry = quotes.entry(for: QuoteKey(brandID: broker.id, symbol: symbol))
            return CrossBrokerQuote.Observation(entry?.quote, receivedAt: entry?.receivedAt)
        }, now: now, staleAfter: settings.staleAfter, outlierBasisPoints: settings.outlierBasisPoints)
    }

    /// The per-symbol view's slot of `symbol`: keyed by the first broker, so the selection keeps to it
    /// whichever source is freshest, and pointing at the freshest source's entry, which a sort by price
    /// compares.
    func symbolSlot(_ symbol: String, group: Int, entries: [Int]) -> WatchlistRows.Slot? {
        guard let first = brokers.first else { return nil }
        let cross = CrossBrokerQuote(
            count: entries.count, now: viewTimeForRows, staleAfter: settings.staleAfter, outlierBasisPoints: settings.outlierBasisPoints
        ) { broker in
            let entry = quotes.latest[entries[broker]]
            return CrossBrokerQuote.Observation(entry.quote, receivedAt: entry.receivedAt)
        }
        let source = cross.last?.source ?? 0
        return WatchlistRows.Slot(
            key: QuoteKey(brandID: first.id, symbol: symbol), branding: brokers[source], entry: entries[source], group: group)
    }

    /// The broker a ticket opens on: the row's own; in the per-symbol view the one with the best price
    /// for the side (the best ask to buy, the best bid to sell), else the freshest source's.
    func ticketBrokerID(for row: WatchlistRow, side: OrderSide) -> String {
        guard rowMode == .perSymbol else { return row.key.brandID }
        let cross = crossBroker(of: row.key.symbol, at: viewTimeForRows)
        let pick = side.isBuy ? cross.bestAsk : cross.bestBid
        return brokers[(pick ?? cross.last)?.source ?? 0].id
    }
}
