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

    /// A placement whose hold and listing among the open orders wait for the next line (see `settle`).
    struct Placement: Sendable {
        var request: OrderRequest
        var id: OrderID
        var quote: QuoteSnapshot
    }

    public let brokerID: String
    /// The account without the hold of `unsettled`; `account` adds it.
    private var book: PaperAccount
    /// False until the ledger's first line (`accountOpened`) is applied.
    public private(set) var isOpened = false
    /// The sequence number of the last line applied (0 for none).
    public private(set) var lastLine = 0
    /// Every fill, oldest first.
    public private(set) var fills: [Fill] = []
    private var entries = AppendOnlyList<Entry>()
    private var entryIndex = PaperOrderIndex()
    /// Open orders per symbol, oldest first, `unsettled` not yet among them: a quote looks only at its
    /// symbol's orders.
    private var openBySymbol: [String: [OrderID]] = [:]
    private var openCount = 0
    /// The order placed on the last line applied, while its hold is not in `book` and it is not in
    /// `openBySymbol`. Most orders the paper broker places are market orders filled on the very next
    /// line, whose fill releases the hold and ends the listing at once; leaving both out until the next
    /// line shows whether it is that fill saves taking and releasing them (a third of applying a ledger
    /// of market orders). Every reading below counts the unsettled placement in, so nothing shows it.
    private var unsettled: Placement?

    /// `configuration.startingCash` is replaced by the ledger's `accountOpened`; the commission schedule
    /// and `allowShort` apply to what is decided from now on (each fill keeps the commission it paid).
    public init(brokerID: String, configuration: PaperAccount.Configuration) {
        self.brokerID = brokerID
        self.book = PaperAccount(configuration: configuration)
    }

    // MARK: Reading

    /// Cash, positions and holds as of the last line applied.
    public var account: PaperAccount {
        guard let unsettled else { return book }
        var account = book
        _ = account.accept(unsettled.request, id: unsettled.id, quote: unsettled.quote)
        return account
    }

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
    public var symbolsWithOpenOrders: Set<String> {
        var symbols = Set(openBySymbol.keys)
        if let unsettled { symbols.insert(unsettled.request.symbol) }
        return symbols
    }

    public var openOrderCount: Int { openCount }

    /// Open orders of `symbol`, oldest first.
    public func openOrders(of symbol: String) -> [Order] {
        openIDs(of: symbol).compactMap(order)
    }

    /// Symbols with an open position.
    public var heldSymbols: Set<String> {
        // Holds do not change positions: `book` has them all.
        Set(book.symbols.filter { book.lots(for: $0)?.isFlat == false })
    }

    // MARK: Applying lines

    /// Applies line `line` of the ledger; returns what changed for the broker's subscribers, or nil when
    /// nothing they see did (the account's opening). A record that contradicts the lines before it (a
    /// second opening, an unknown or already closed order, a fill of another size) throws and changes
    /// nothing: such a ledger was edited or written by something else, and guessing would hide it.
    @discardableResult
    public mutating func apply(_ record: PaperLedgerRecord, line: Int) throws(PaperLedgerInconsistency) -> PaperEvent? {
        switch try book(record, line: line) {
        case .opened: return nil
        case .placed(let index): return .placed(entries[index].order)
        case .triggered(let index): return .triggered(entries[index].order)
        case .filled(let index): return .filled(entries[index].order, fills[fills.count - 1], ledgerLine: line)
        case .cancelled(let index): return .cancelled(entries[index].order)
        case .expired(let index): return .expired(entries[index].order)
        case .rejected(let index): return .rejected(entries[index].order)
        }
    }

    /// What `book` did, for `apply` to make the event of: the order's place in `entries` (a fill's
    /// `Fill` is the last of `fills`). A replay makes no events: building each and throwing it away,
    /// an order copied with its strings, was a fifth of applying a ledger.
    private enum Booked {
        case opened
        case placed(Int), triggered(Int), filled(Int), cancelled(Int), expired(Int), rejected(Int)
    }

    /// `apply` without the event.
    private mutating func book(_ record: PaperLedgerRecord, line: Int) throws(PaperLedgerInconsistency) -> Booked {
        func inconsistent(_ reason: String) -> PaperLedgerInconsistency {
            PaperLedgerInconsistency(line: line, reason: reason)
        }
        guard line > lastLine else { throw inconsistent("it comes after line \(lastLine) but is numbered \(line)") }
        if unsettled != nil, !fillsUnsettled(record) { settle() }
        if case .accountOpened(let opened) = record {
            guard !isOpened, lastLine == 0 else {
                throw inconsistent("it opens the account again; only the first line may open it")
            }
            var configuration = book.configuration
            configuration.startingCash = opened.startingCash
            book = PaperAccount(configuration: configuration)
            isOpened = true
            lastLine = line
            return .opened
        }
        guard isOpened else {
            throw inconsistent("its \(record.type) record comes before the account is opened; line 1 must open it (accountOpened)")
        }

        let booked: Booked
        switch record {
        case .accountOpened:
            preconditionFailure("handled above")

        case .placed(let placed):
            if entryIndex.insert(placed.orderID, at: entries.count, placedOn: line) != nil {
                throw inconsistent("order \(placed.orderID) is placed a second time")
            }
            // Its hold is taken as it was when placed (`settle`): the same state and prices give the same
            // hold. A refusal there could only come from rules changed since; the order was accepted
            // then and stays open.
            unsettled = Placement(request: placed.request, id: placed.orderID, quote: placed.quote)
            let order = Order(request: placed.request, id: placed.orderID, status: .accepted,
                              createdAt: placed.time, updatedAt: placed.time)
            entries.append(Entry(order: order, workingType: placed.request.type, expiresAt: placed.expiresAt))
            openCount += 1
            booked = .placed(entries.count - 1)

        case .triggered(let triggered):
            let index = try openEntry(triggered.orderID, line: line, record: record)
            guard entries[index].order.request.type.stopPrice != nil else {
                throw inconsistent("order \(triggered.orderID) is a \(entries[index].order.request.type.name) order, which has no stop to trigger")
            }
            entries[index].workingType = triggered.worksAs
            entries[index].order.updatedAt = triggered.time
            booked = .triggered(index)

        case .filled(let filled):
            // When it fills the order placed on the line before, that order's hold was never taken and it
            // was never listed as open: booking the fill would release the one and end the other.
            let unlisted = unsettled != nil
            let index: Int
            do throws(PaperLedgerInconsistency) {
                index = try openEntry(filled.orderID, line: line, record: record)
                // The paper broker fills whole orders (no partial fills).
                let remaining = entries[index].order.remainingQuantity
                guard filled.quantity == remaining else {
                    throw inconsistent("it fills \(filled.quantity) of order \(filled.orderID), which has \(remaining) to fill")
                }
            } catch {
                settle()
                throw error
            }
            let fill = Fill(
                id: filled.fillID, orderID: filled.orderID, symbol: entries[index].order.symbol, side: entries[index].order.side,
                quantity: filled.quantity, price: filled.price, commission: filled.commission,
                time: filled.time, priceSource: filled.priceSource)
            do {
                try book.apply(fill)
            } catch {
                // Nothing was booked: the placement's hold is as it was, so it is settled as it would be.
                settle()
                throw inconsistent("its fill cannot be booked: \(error)")
            }
            unsettled = nil
            entries[index].order.filledQuantity = entries[index].order.request.quantity
            entries[index].order.averageFillPrice = filled.price
            entries[index].order.status = .filled
            entries[index].order.updatedAt = filled.time
            close(index, listed: !unlisted)
            fills.append(fill)
            booked = .filled(index)

        case .cancelled(let cancelled):
            let index = try openEntry(cancelled.orderID, line: line, record: record)
            entries[index].order.status = cancelled.replacedBy == nil ? .cancelled : .replaced
            entries[index].order.updatedAt = cancelled.time
            book.release(cancelled.orderID)
            close(index, listed: true)
            booked = .cancelled(index)

        case .expired(let expired):
            let index = try openEntry(expired.orderID, line: line, record: record)
            entries[index].order.status = .expired
            entries[index].order.updatedAt = expired.time
            book.release(expired.orderID)
            close(index, listed: true)
            booked = .expired(index)

        case .rejected(let rejected):
            let index = try openEntry(rejected.orderID, line: line, record: record)
            entries[index].order.status = .rejected(reason: rejected.reason)
            entries[index].order.updatedAt = rejected.time
            book.release(rejected.orderID)
            close(index, listed: true)
            booked = .rejected(index)
        }
        lastLine = line
        return booked
    }

    /// Applies `records`, lines `firstLine`, `firstLine + 1`, … of the ledger, as `apply(_:line:)` does
    /// each, without making their events: a replay at start. On a throw, the records before the one
    /// that threw are applied.
    public mutating func apply(contentsOf records: [PaperLedgerRecord], firstLine: Int) throws(PaperLedgerInconsistency) {
        for index in records.indices {
            _ = try book(records[index], line: firstLine + index)
        }
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
        let ids = openIDs(of: symbol)
        guard !ids.isEmpty else { return [] }
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
        for ids in openBySymbol.values + (unsettled.map { [[$0.id]] } ?? []) {
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

    /// Takes the order at `index`, now closed, off the open orders (`listed`: it is in `openBySymbol`).
    private mutating func close(_ index: Int, listed: Bool) {
        openCount -= 1
        guard listed else { return }
        let id = entries[index].order.id
        if let slot = openBySymbol.index(forKey: entries[index].order.symbol) {
            openBySymbol.values[slot].removeAll { $0 == id }
            if openBySymbol.values[slot].isEmpty { openBySymbol.remove(at: slot) }
        }
    }

    /// Whether `record` fills the order placed on the line before, which is then not settled first.
    private func fillsUnsettled(_ record: PaperLedgerRecord) -> Bool {
        guard case .filled(let filled) = record, let unsettledID = unsettled?.id else { return false }
        return filled.orderID == unsettledID
    }

    /// Takes the hold of the order placed on the last line and lists it among the open orders.
    private mutating func settle() {
        guard let placement = unsettled else { return }
        unsettled = nil
        _ = book.accept(placement.request, id: placement.id, quote: placement.quote)
        openBySymbol[placement.request.symbol, default: []].append(placement.id)
    }

    /// Open orders of `symbol`, oldest first, the unsettled placement (the newest) included.
    private func openIDs(of symbol: String) -> [OrderID] {
        var ids = openBySymbol[symbol] ?? []
        if let unsettled, unsettled.request.symbol == symbol { ids.append(unsettled.id) }
        return ids
    }
}
