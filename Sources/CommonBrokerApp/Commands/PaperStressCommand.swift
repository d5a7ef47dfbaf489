import Domain
import Foundation
import PaperTrading

/// `commonbroker paper-stress --ledger PATH --orders N --seed S` (hidden): runs a paper broker on
/// `PaperStressFeed` with the ledger at PATH and places N market orders (seeded symbols and sizes,
/// mostly buys, some sells of shares it bought) as fast as it can. Each fill is printed on stdout as
/// `ACK <orderID> <ledger line>` only once the broker has published it, which it does only after the
/// line is written and flushed to disk. The kill -9 end-to-end test kills it at random moments and
/// checks every acknowledged fill is in the ledger exactly once.
///
/// An existing ledger is replayed first, as the app would, and orders a killed run left open fill on
/// their first quote (and are acknowledged too). Exit status 0 once every order it placed has filled;
/// 1 with the reason on stderr otherwise.
enum PaperStressCommand {
    static func run(_ options: PaperStressOptions) async -> Int32 {
        let settings = PaperSettings(
            ledgerURL: URL(fileURLWithPath: options.ledgerPath), sourceBrokerID: PaperStressFeed.branding.id,
            startingCash: 1_000_000_000, session: .aroundTheClock)
        let broker: PaperBroker
        do {
            broker = try await PaperBroker.start(settings: settings, feed: PaperStressFeed(seed: options.seed))
        } catch {
            StandardError.write("commonbroker: \(error.description)")
            return 1
        }
        let acknowledger = Task { () -> String? in
            var problem: String?
            for await event in broker.events {
                switch event {
                case .filled(let order, _, let line):
                    // One write per line: a kill cuts between lines, never inside one.
                    FileHandle.standardOutput.write(Data("ACK \(order.id) \(line)\n".utf8))
                case .notice(let text):
                    StandardError.write("commonbroker: \(text)")
                case .halted(let text):
                    problem = text
                default:
                    break
                }
            }
            return problem
        }

        var random = SplitMix64(seed: options.seed)
        var held: [String: Int] = [:]
        var unfilled: [OrderID] = []
        var failure: String?
        for index in 0..<options.orders {
            let symbols = PaperStressFeed.symbols
            let symbol = symbols[Int(random.next() % UInt64(symbols.count))]
            let sells = held[symbol, default: 0] > 0 && random.next() % 4 == 0
            let quantity = sells ? 1 : 1 + Int(random.next() % 10)
            do {
                let request = try OrderRequest(
                    symbol: symbol, side: sells ? .sell : .buy, quantity: ExactDecimal(quantity), type: .market,
                    timeInForce: .gtc, clientOrderID: ClientOrderID("stress-\(options.seed)-\(index)"))
                let order = try await broker.place(request)
                if order.status != .filled { unfilled.append(order.id) }
                held[symbol, default: 0] += sells ? -quantity : quantity
            } catch {
                failure = "order \(index + 1) of \(options.orders): \(error)"
                break
            }
        }
        // Only fills the broker published are acknowledged: stopping ends the events once they are out.
        await broker.stop()
        if let problem = await acknowledger.value { failure = failure ?? problem }
        if failure == nil, !unfilled.isEmpty {
            failure = "\(unfilled.count) market orders did not fill at once on a quote, e.g. \(unfilled[0])"
        }
        if let failure {
            StandardError.write("commonbroker: paper-stress: \(failure)")
            return 1
        }
        return 0
    }
}
