import Domain
import Foundation

/// What the paper broker's ledger says, as a value: the account (cash, FIFO lots, holds), every order
/// with its status, every fill. Replaying the ledger is `apply` on each line in order; the broker does
/// exactly the same with each line it or another instance appends, so a restart rebuilds the state it
/// had, byte for byte of every amount.
///
/// The broker never changes the state any other way: it asks for records (`placement`, `executions`,
/// `cancellation`, …, pure functions of the state and a quote), appends them to the journal, and only
/// then applies them. Sharing: the records are asked for under the journal's lock, after applying what
/// other instances appended, so they are judged on the latest state (see `PaperBroker`).
public struct PaperLedgerState: Sendable {
    /// An order and what only the paper broker keeps about it.
    struct Entry: Sendable {
        var order: Order
        /// The type it works as now: a triggered stop works as `.market`, a stop limit as `.limit`.
        var workingType: OrderType
        var expiresAt: Date?
    }

    public let brokerID: String
    public private(set) var account: PaperAccount
    /// False until the ledger's first line (`accountOpened`) is applied.
    public private(set) var isOpened = false
    /// The sequence number of the last line applied (0 for none).
    public private(set) var lastLine = 0
    /// Every fill, oldest first.
    public private(set) var fills: [Fill] = []
    private var entries: [Entry] = []
    private var entryIndex: [OrderID: Int] = [:]
    /// Open orders per symbol, oldest first: a quote looks only at its symbol's orders.
    private var openBySymbol: [String: [OrderID]] = [:]
    private var openCount = 0

    /// `configuration.startingCash` is replaced by the ledger's `accountOpened`; the commission schedule
    /// and `allowShort` apply to what is decided from now on (each fill keeps the commission it paid).
    public init(brokerID: String, configuration: PaperAccount.Configuration) {
        self.brokerID = brokerID
        self.account = PaperAccount(configuration: configuration)
    }

    // MARK: Reading

    /// Every order, oldest first.
    public var orders: [Order] { entries.map(\.order) }

    public func order(_ id: OrderID) -> Order? {
        entryIndex[id].map { entries[$0].order }
    }

    /// The type `id` works as now (a triggered stop's market or limit), nil for an unknown order.
    public func workingType(of id: OrderID) -> OrderType? {
        entryIndex[id].map { entries[$0].workingType }
    }

    /// Symbols with open orders.
    public var symbolsWithOpenOrders: Set<String> { Set(openBySymbol.keys) }

    public var openOrderCount: Int { openCount }

    /// Open orders of `symbol`, oldest first.
    public func openOrders(of symbol: String) -> [Order] {
        (openBySymbol[symbol] ?? []).compactMap(order)
    }

    /// Symbols with an open position.
    public var heldSymbols: Set<String> {
        Set(account.symbols.filter { account.lots(for: $0)?.isFlat == false })
    }

    // MARK: Applying lines

    /// Applies line `line` of the ledger; returns what changed for the broker's subscribers, or nil when
    /// nothing they see did (the account's opening). A record that contradicts the lines before it (a
    /// second opening, an unknown or already closed order, a fill of another size) throws and changes
    /// nothing: such a ledger was edited or written by something else, and guessing would hide it.
    @discardableResult
    public mutating func apply(_ record: PaperLedgerRecord, line: Int) throws(PaperLedgerInconsistency) -> PaperEvent? {
        func inconsistent(_ reason: String) -> PaperLedgerInconsistency {
            PaperLedgerInconsistency(line: line, reason: reason)
        }
        guard line > lastLine else { throw inconsistent("it comes after line \(lastLine) but is numbered \(line)") }
        if case .accountOpened(let opened) = record {
            guard !isOpened, lastLine == 0 else {
                throw inconsistent("it opens the account again; only the first line may open it")
            }
            var configuration = account.configuration
            configuration.startingCash = opened.startingCash
            account = PaperAccount(configuration: configuration)
            isOpened = true
            lastLine = line
            return nil
        }
        guard isOpened else {
            throw inconsistent("its \(record.type) record comes before the account is opened; line 1 must open it (accountOpened)")
        }

        let event: PaperEvent
        switch record {
        case .accountOpened:
            preconditionFailure("handled above")

        case .placed(let placed):
            guard entryIndex[placed.orderID] == nil else {
                throw inconsistent("order \(placed.orderID) is placed a second time")
            }
            // Taken as it was when placed: the same state and prices give the same hold. A refusal here
            // could only come from rules changed since; the order was accepted then and stays open.
            _ = account.accept(placed.request, id: placed.orderID, quote: placed.quote)
            let order = Order(request: placed.request, id: placed.orderID, status: .accepted,
                              createdAt: placed.time, updatedAt: placed.time)
            entryIndex[placed.orderID] = entries.count
            entries.append(Entry(order: order, workingType: placed.request.type, expiresAt: placed.expiresAt))
            openBySymbol[placed.request.symbol, default: []].append(placed.orderID)
            openCount += 1
            event = .placed(order)

        case .triggered(let triggered):
            let index = try openEntry(triggered.orderID, line: line, record: record)
            guard entries[index].order.request.type.stopPrice != nil else {
                throw inconsistent("order \(triggered.orderID) is a \(entries[index].order.request.type.name) order, which has no stop to trigger")
            }
            entries[index].workingType = triggered.worksAs
            entries[index].order.updatedAt = triggered.time
            event = .triggered(entries[index].order)

        case .filled(let filled):
            let index = try openEntry(filled.orderID, line: line, record: record)
            var order = entries[index].order
            // The paper broker fills whole orders (no partial fills).
            guard filled.quantity == order.remainingQuantity else {
                throw inconsistent("it fills \(filled.quantity) of order \(filled.orderID), which has \(order.remainingQuantity) to fill")
            }
            let fill = Fill(
                id: filled.fillID, orderID: filled.orderID, symbol: order.symbol, side: order.side,
                quantity: filled.quantity, price: filled.price, commission: filled.commission,
                time: filled.time, priceSource: filled.priceSource)
            do {
                try account.apply(fill)
            } catch {
                throw inconsistent("its fill cannot be booked: \(error)")
            }
            order.filledQuantity = order.request.quantity
            order.averageFillPrice = filled.price
            order.status = .filled
            order.updatedAt = filled.time
            close(index, order)
            fills.append(fill)
            event = .filled(order, fill, ledgerLine: line)

        case .cancelled(let cancelled):
            let index = try openEntry(cancelled.orderID, line: line, record: record)
            var order = entries[index].order
            order.status = cancelled.replacedBy == nil ? .cancelled : .replaced
            order.updatedAt = cancelled.time
            account.release(cancelled.orderID)
            close(index, order)
            event = .cancelled(order)

        case .expired(let expired):
            let index = try openEntry(expired.orderID, line: line, record: record)
            var order = entries[index].order
            order.status = .expired
            order.updatedAt = expired.time
            account.release(expired.orderID)
            close(index, order)
            event = .expired(order)

        case .rejected(let rejected):
            let index = try openEntry(rejected.orderID, line: line, record: record)
            var order = entries[index].order
            order.status = .rejected(reason: rejected.reason)
            order.updatedAt = rejected.time
            account.release(rejected.orderID)
            close(index, order)
            event = .rejected(order)
        }
        lastLine = line
        return event
    }

    // MARK: Deciding

    /// The line that places `request` as order `id` at `time`, priced on `quote` (the source's latest,
    /// nil when it has none), or why the account refuses it.
    public func placement(
        of request: OrderRequest, id: OrderID, at time: Date, quote: QuoteSnapshot?, session: MarketSession
    ) -> Result<PaperOrderPlaced, PaperRefusal> {
        let prices = quote ?? QuoteSnapshot(bid: nil, ask: nil, last: 0, time: time)
        if let refusal = account.validate(request, quote: prices) { return .failure(refusal) }
        return .success(Self.placed(request, id: id, at: time, quote: quote, session: session))
    }

    /// The lines that cancel open order `id`, or why it cannot be cancelled.
    public func cancellation(of id: OrderID, at time: Date) -> Result<PaperOrderCancelled, BrokerError> {
        if let refusal = notOpen(id) { return .failure(refusal) }
        return .success(PaperOrderCancelled(orderID: id, time: time))
    }

    /// The lines that replace open order `id` by `request` as order `newID`: the old one cancelled as
    /// replaced, the new one placed, judged as if the old order's hold were already released.
    public func replacement(
        of id: OrderID, by request: OrderRequest, newID: OrderID, at time: Date, quote: QuoteSnapshot?,
        session: MarketSession
    ) -> Result<[PaperLedgerRecord], BrokerError> {
        if let refusal = notOpen(id) { return .failure(refusal) }
        var trial = account
        trial.release(id)
        let prices = quote ?? QuoteSnapshot(bid: nil, ask: nil, last: 0, time: time)
        if let refusal = trial.validate(request, quote: prices) { return .failure(refusal.brokerError) }
        return .success([
            .cancelled(PaperOrderCancelled(orderID: id, time: time, replacedBy: newID)),
            .placed(Self.placed(request, id: newID, at: time, quote: quote, session: session)),
        ])
    }

    /// What `quote` does to `symbol`'s open orders at `now`: day orders past their session's close
    /// expire, stops whose trigger printed trigger, and orders the fill rules fill get a fill (or, when
    /// the account cannot book it, a rejection). `firstLine` is the line the first record will be
    /// written at: fill ids are `F-<line>`, unique across instances sharing the ledger.
    public func executions(
        of symbol: String, on quote: QuoteSnapshot, marketOpen: Bool, at now: Date, firstLine: Int
    ) -> [PaperLedgerRecord] {
        guard let ids = openBySymbol[symbol] else { return [] }
        var records: [PaperLedgerRecord] = []
        // Fills are tried on a copy, in order, so a fill the account could not book is known before it is
        // written. Copying costs one copy of the account's tables per quote that fills something.
        var trial: PaperAccount?
        for id in ids {
            guard let index = entryIndex[id] else { continue }
            let entry = entries[index]
            if let expiresAt = entry.expiresAt, FillRules.expires(entry.order, at: now, sessionClose: expiresAt) {
                records.append(.expired(PaperOrderExpired(orderID: id, time: now)))
                continue
            }
            let side = entry.order.side
            var decision = FillRules.decide(side: side, type: entry.workingType, quote: quote, marketOpen: marketOpen)
            if case .triggered(let becomes) = decision {
                records.append(.triggered(PaperOrderTriggered(orderID: id, worksAs: becomes, lastTrade: quote.last, time: now)))
                decision = FillRules.decide(side: side, type: becomes, quote: quote, marketOpen: marketOpen)
            }
            guard case .fill(let price, let source) = decision else { continue }
            let quantity = entry.order.remainingQuantity
            var booked = trial ?? account
            do {
                let fill = Fill(
                    id: FillID("F-\(firstLine + records.count)"), orderID: id, symbol: symbol, side: side,
                    quantity: quantity, price: price, commission: try booked.commission(for: quantity),
                    time: now, priceSource: source)
                try booked.apply(fill)
                records.append(.filled(PaperOrderFilled(
                    orderID: id, fillID: fill.id, quantity: quantity, price: price, priceSource: source,
                    commission: fill.commission, time: now)))
            } catch {
                records.append(.rejected(PaperOrderRejected(
                    orderID: id, reason: "\(side.displayName) \(quantity) \(symbol) at \(price) cannot be booked: \(error)",
                    time: now)))
            }
            trial = booked
        }
        return records
    }

    /// Expiries of every open day order whose session has closed by `now`, whatever its symbol: for the
    /// broker's periodic check, so an order on a symbol that stopped quoting still expires.
    public func expiries(at now: Date) -> [PaperLedgerRecord] {
        var due: [Int] = []
        for ids in openBySymbol.values {
            for id in ids {
                guard let index = entryIndex[id], let expiresAt = entries[index].expiresAt,
                      FillRules.expires(entries[index].order, at: now, sessionClose: expiresAt) else { continue }
                due.append(index)
            }
        }
        // Oldest first, so the same state always gives the same lines.
        return due.sorted().map { .expired(PaperOrderExpired(orderID: entries[$0].order.id, time: now)) }
    }

    // MARK: Private

    private static func placed(
        _ request: OrderRequest, id: OrderID, at time: Date, quote: QuoteSnapshot?, session: MarketSession
    ) -> PaperOrderPlaced {
        PaperOrderPlaced(
            orderID: id, request: request, time: time,
            expiresAt: request.timeInForce == .day ? session.close(ofSessionAt: time) : nil,
            bid: quote?.bid, ask: quote?.ask, last: quote.flatMap { $0.last.isPositive ? $0.last : nil })
    }

    private func notOpen(_ id: OrderID) -> BrokerError? {
        guard let index = entryIndex[id] else {
            return .orderRejected(reason: "the paper broker has no order \(id)")
        }
        let status = entries[index].order.status
        return status.isOpen ? nil : .orderRejected(reason: "order \(id) is already \(status.name)")
    }

    private func openEntry(_ id: OrderID, line: Int, record: PaperLedgerRecord) throws(PaperLedgerInconsistency) -> Int {
        guard let index = entryIndex[id] else {
            throw PaperLedgerInconsistency(line: line, reason: "it is about order \(id), which no earlier line placed")
        }
        let status = entries[index].order.status
        guard status.isOpen else {
            throw PaperLedgerInconsistency(line: line, reason: "its order \(id) is already \(status.name)")
        }
        return index
    }

    private mutating func close(_ index: Int, _ order: Order) {
        entries[index].order = order
        let symbol = order.symbol
        openBySymbol[symbol]?.removeAll { $0 == order.id }
        if openBySymbol[symbol]?.isEmpty == true { openBySymbol[symbol] = nil }
        openCount -= 1
    }
}
