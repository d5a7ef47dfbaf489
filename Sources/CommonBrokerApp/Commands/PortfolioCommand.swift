import Domain
import Foundation
import Interactors
import Stores

/// `commonbroker print positions|orders [--json|--csv]`: asks every trading broker (and the holdings
/// book) once, values positions at a fresh snapshot quote, prints, exits. No curses.
enum PortfolioCommand {
    /// Exit status: 0 when at least one source answered, 1 when every one failed.
    static func run(_ app: AppComposition, kind: PortfolioReport.Kind, format: PortfolioReport.Format) async -> Int32 {
        for note in app.notes { StandardError.write("commonbroker: \(note.text)") }
        let desk = await TradingDesk.start(app)
        for note in desk.notes { StandardError.write("commonbroker: \(note.text)") }
        var store = PortfolioStore(brokers: desk.services.map(\.branding))
        let now = Date()
        await withTaskGroup(of: (String, Result<PortfolioSnapshot, BrokerError>).self) { group in
            for service in desk.services {
                group.addTask { (service.branding.id, await service.portfolio()) }
            }
            for await (brokerID, result) in group {
                store.apply(result, for: brokerID, at: now)
            }
        }
        let output: String
        switch kind {
        case .positions:
            let symbols = Array(Set(store.brokers.flatMap { $0.positions.map(\.symbol) })).sorted()
            let answers = symbols.isEmpty ? [] : await QuoteFanOut.fetchAll(symbols, from: app.quoteServices)
            let sources = Dictionary(desk.brokers.map { ($0.branding.id, $0.quoteSourceID) }, uniquingKeysWith: { first, _ in first })
            let summary = PositionsSummary(portfolio: store, todayStarted: Calendar.current.startOfDay(for: now)) { brokerID, symbol in
                let source = sources[brokerID] ?? brokerID
                let quotes = answers.compactMap { answer -> CommonQuote? in
                    if case .success(let quote)? = answer.results[symbol] { return quote } else { return nil }
                }
                if let own = answers.first(where: { $0.branding.id == source }), case .success(let quote)? = own.results[symbol] { return quote }
                return quotes.max { $0.timestamp < $1.timestamp }
            }
            output = PortfolioReport.positions(summary, format: format)
        case .orders:
            let problems = store.brokers.compactMap { broker in broker.error.map { (broker.branding.id, $0) } }
            output = PortfolioReport.orders(OrdersScreen.rows(of: store), problems: problems, format: format)
        }
        FileHandle.standardOutput.write(Data(output.utf8))
        for broker in store.brokers {
            if let error = broker.error { StandardError.write("commonbroker: \(broker.branding.name): \(error)") }
        }
        await desk.stop()
        await app.hub.shutdown()
        return store.brokers.contains { $0.snapshot != nil } || store.brokers.isEmpty ? 0 : 1
    }
}
