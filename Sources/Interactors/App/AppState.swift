import Domain
import Foundation
import Stores
import TerminalKit

/// The whole app as a value: the watchlist, the latest quotes and broker states, the input mode, the
/// messages, the accounts panel. `update` is the only way it changes: it takes a fact (`AppEvent`) and
/// returns what should happen because of it (`AppEffect`s), which `AppRuntime` carries out. No tasks, no
/// I/O, no clock of its own: tests feed it events.
public struct AppState: Sendable {
    public let brokers: [ServiceBranding]
    /// Every list, in the user's order; one is shown.
    public private(set) var lists: [NamedWatchlist]
    /// The shown list, by name: edits from other windows can move it.
    public internal(set) var currentListName: String
    public private(set) var quotes = QuoteStore()
    public private(set) var statuses: BrokerStatusStore
    public private(set) var sort: SortOrder = .symbol
    /// The screen in front of the table, which takes the keys.
    public internal(set) var front: FrontScreen = .watchlist
    /// The status line's message; every message shown also goes to `messageLog`.
    public internal(set) var message: StatusMessage?
    /// The last `messageLogLimit` messages, oldest first (`m` shows them).
    public private(set) var messageLog: [StatusMessage] = []
    public static let messageLogLimit = 100
    public let settings: Settings
    /// The accounts panel when it is open.
    public private(set) var accounts: AccountsPanel?
    /// The selection follows its row when sorting moves it; `selectedIndex` is the fallback when the row goes.
    public internal(set) var selectedKey: QuoteKey?
    public internal(set) var selectedIndex: Int = 0
    /// The terminal's size, for paging (the view alone decides what is on screen).
    public private(set) var terminalSize: ScreenSize
    /// The symbols the runtime follows on the market feed, as the effects so far have told it.
    public private(set) var followed: Set<String> = []
    /// Removed symbols and deleted lists with their former position, newest last, for `u`.
    public private(set) var undoStack: [Undo] = []
    /// The table's order: one slot per (symbol, broker); rebuilt when the symbols or the sort change, and
    /// on quotes only when sorted by a price. What a row shows is read from `quotes` when it is drawn.
    public private(set) var slots: [WatchlistRows.Slot] = []
    /// What the add prompt held while its edit is being saved, for the message (or to reopen it).
    private var pendingAdd: PendingAdd?
    /// Positions, orders and balances of every trading broker.
    public internal(set) var portfolio: PortfolioStore
    /// When the portfolio was last asked for, so open trading screens refresh it now and then.
    var portfolioAskedAt: Date?
    /// Orders sent this run, for client order ids.
    var ordersSent = 0
    /// How each broker's quotes arrive, where the bus said (absent: its own connection).
    public private(set) var routes: [String: QuoteRoute] = [:]
    /// The price alerts, as saved with the lists.
    public internal(set) var alerts: AlertBook
    /// What fired this run, oldest first, at most `alertLogLimit` (`L` shows them newest first).
    public internal(set) var alertLog: [AlertFiring] = []
    /// Rows whose alert fired since the alert log was last opened: highlighted until seen.
    public internal(set) var alertedRows: Set<QuoteKey> = []
    /// The time of the last event, for what the view derives from the date (today's P&L).
    private var viewTime = Date.distantPast
    /// The theme drawn now (`T` cycles it).
    public internal(set) var theme: ThemeName
    /// Each list's `/` filter, by list name; a list without one shows every row.
    public internal(set) var filters: [String: String] = [:]
    /// The time of the last event, for the cross-broker figures that order the per-symbol rows.
    var viewTimeForRows: Date { viewTime }
    /// One row per (symbol, broker), or one per symbol across brokers (`c`).
    public internal(set) var rowMode: WatchlistRowMode = .perBroker
    /// `r`: the sort's order reversed (a new sort starts unreversed).
    public internal(set) var sortReversed = false
    /// Each symbol's entries across brokers, rebuilt with `slots`.
    public private(set) var groups = SymbolGroups()

    /// What does not change while the app runs.
    public struct Settings: Sendable {
        public var isDemo: Bool
        /// False for a `--symbols` run, whose edits are not written anywhere: the header and messages say so.
        public var isSaved: Bool
        /// A safety check the user turned off (e.g. "TLS NOT VERIFIED"), shown on every frame.
        public var securityWarning: String?
        public var staleAfter: TimeInterval
        public var highlightFor: TimeInterval
        /// Brokers that have accounts (the accounts panel lists them).
        public var accountBrokers: [ServiceBranding]
        /// Brokers orders can go to, paper first when it runs.
        public var tradingBrokers: [TradingBroker]
        /// Sources of positions that take no orders (holdings kept elsewhere), shown on the positions screen.
        public var holdingsSources: [ServiceBranding]
        /// How often open trading screens ask for the portfolio again.
        public var portfolioRefresh: TimeInterval
        /// Ring the terminal bell when an alert fires (`alerts.bell`).
        public var alertBell = true
        /// Ask for a desktop notification when an alert fires (`alerts.desktop`).
        public var alertDesktop = false
        /// The table's keys (the config's `keys`).
        public var keys: KeyBindings
        /// The theme at start (the config's `theme`).
        public var theme: ThemeName
        /// The table's columns in order (the config's `columns`).
        public var columns: [WatchlistColumn]
        /// How far a broker's last may be from the median of the others' before its row is flagged
        /// (the config's `crossBroker.outlierBasisPoints`).
        public var outlierBasisPoints: ExactDecimal
        /// The sparkline's window, in minutes (the config's `sparklineMinutes`).
        public var sparklineMinutes: Int
        /// Benchmarks only: every row starts with a full price history (`HistoryBackfill`); nil in use.
        public var historyBackfill: HistoryBackfill?

        public init(
            isDemo: Bool, isSaved: Bool = true, securityWarning: String? = nil, staleAfter: TimeInterval = 30,
            highlightFor: TimeInterval = 1, accountBrokers: [ServiceBranding] = [], tradingBrokers: [TradingBroker] = [],
            holdingsSources: [ServiceBranding] = [], portfolioRefresh: TimeInterval = 5,
            alertBell: Bool = true, alertDesktop: Bool = false, keys: KeyBindings = .standard, theme: ThemeName = .dark
        ,
            columns: [WatchlistColumn] = WatchlistColumn.defaultOrder, outlierBasisPoints: ExactDecimal = 50, sparklineMinutes: Int = 10,
            historyBackfill: HistoryBackfill? = nil
        ) {
            self.historyBackfill = historyBackfill
            self.alertBell = alertBell
            self.alertDesktop = alertDesktop
            self.columns = columns
            self.outlierBasisPoints = outlierBasisPoints
            self.sparklineMinutes = sparklineMinutes
            self.isDemo = isDemo
            self.isSaved = isSaved
            self.securityWarning = securityWarning
            self.staleAfter = staleAfter
            self.highlightFor = highlightFor
            self.accountBrokers = accountBrokers
            self.tradingBrokers = tradingBrokers
            self.holdingsSources = holdingsSources
            self.portfolioRefresh = portfolioRefresh
            self.keys = keys
            self.theme = theme
        }

        /// Some broker's orders reach a production account.
        public var tradesLive: Bool { tradingBrokers.contains(where: \.isLive) }
    }

    /// Something `u` can bring back.
    public enum Undo: Sendable, Hashable {
        case symbol(String, at: Int, list: String)
        case list(NamedWatchlist, at: Int)
    }

    private struct PendingAdd: Sendable {
        var text: String
        var alreadyListed: [String]
        var invalid: [AddSymbolsInput.Invalid]
    }

    public init(
        brokers: [ServiceBranding], book: WatchlistBook, settings: Settings, initialMessages: [StatusMessage] = [],
        terminalSize: ScreenSize = ScreenSize(columns: 80, rows: 24)
    ) {
        self.brokers = brokers
        self.lists = book.lists
        self.alerts = book.alerts
        self.currentListName = book.lists[0].name
        self.settings = settings
        self.theme = settings.theme
        self.statuses = BrokerStatusStore(brokers: brokers)
        self.portfolio = PortfolioStore(brokers: settings.tradingBrokers.map(\.branding) + settings.holdingsSources)
        self.terminalSize = terminalSize
        self.quotes = QuoteStore(
            sparklineWindow: TimeInterval(settings.sparklineMinutes * 60), backfill: settings.historyBackfill)
        show(initialMessages)
        rebuildRows()
    }

    /// One list of `symbols`.
    public init(
        brokers: [ServiceBranding], symbols: [String], settings: Settings, initialMessages: [StatusMessage] = [],
        terminalSize: ScreenSize = ScreenSize(columns: 80, rows: 24)
    ) {
        self.init(
            brokers: brokers, book: WatchlistBook(symbols: symbols), settings: settings,
            initialMessages: initialMessages, terminalSize: terminalSize)
    }

    public var currentListIndex: Int {
        lists.firstIndex { $0.name == currentListName } ?? 0
    }

    /// The shown list's symbols.
    public var symbols: [String] {
        lists[currentListIndex].symbols
    }

    // MARK: - Update

    public mutating func update(_ event: AppEvent, at now: Date) -> [AppEffect] {
        viewTime = now
        switch event {
        case .started:
            return followCurrentSymbols() + askForPortfolio(at: now)
        case .key(let key):
            if key == .control("c") { return [.quit] }
            return routeKey(key, at: now) + followCurrentSymbols()
        case .market(let update):
            apply(update, receivedAt: now)
            return evaluateAlerts(in: update, at: now)
        case .resize(let size):
            terminalSize = size
            return []
        case .route(let brokerID, let route):
            routes[brokerID] = route
            return []
        case .alertsPersisted(let edit, let result):
            alertsPersisted(edit, result, at: now)
            return followCurrentSymbols()
        case .mouse(let action):
            // Clicks land on the table only when nothing is in front of it.
            guard front == .watchlist else { return [] }
            return perform(action, at: now) + followCurrentSymbols()
        case .tick:
            if let message, !message.isShown(at: now) { self.message = nil }
            return refreshPortfolioIfShown(at: now)
        case .accounts(let entry):
            receive(entry)
            return []
        case .persisted(let edit, let result):
            return persisted(edit, result, at: now) + followCurrentSymbols()
        case .portfolio(let brokerID, let result):
            portfolio.apply(result, for: brokerID, at: now)
            return followCurrentSymbols()
        case .orderPlaced(let brokerID, _, let result):
            if case .success(let order) = result { portfolio.record(order, for: brokerID) }
            var effects: [AppEffect] = []
            if case .ticket(var ticket) = front, ticket.broker.branding.id == brokerID {
                let requests = ticket.placed(result)
                front = .ticket(ticket)
                effects = carryOut(requests, at: now)
            } else {
                switch result {
                case .success(let order): say(.info, "\(OrderTicket.describe(order.request)): \(order.status.name)", at: now)
                case .failure(let error): say(.error, "Order refused: \(error.description)", at: now)
                }
            }
            return effects + askForPortfolio(at: now) + followCurrentSymbols()
        case .orderCancelled(let brokerID, let id, let result):
            switch result {
            case .success: say(.info, "Cancel sent for order \(id) at \(brokerName(brokerID))", at: now)
            case .failure(let error): say(.error, "Could not cancel order \(id) at \(brokerName(brokerID)): \(error.description)", at: now)
            }
            return askForPortfolio(at: now)
        case .trading(let activity):
            switch activity.change {
            case .order(let order):
                portfolio.record(order, for: activity.brokerID)
                announce(order, at: activity.brokerID, at: now)
                return askForPortfolio(at: now) + followCurrentSymbols()
            case .notice(let text):
                say(.warning, "\(brokerName(activity.brokerID)): \(text)", at: now)
            case .halted(let reason):
                say(.error, "\(brokerName(activity.brokerID)) stopped taking orders: \(reason)", at: now)
            }
            return []
        }
    }

    /// A key goes to the screen in front; what it asks of the app is carried out here.
    private mutating func routeKey(_ key: KeyPress, at now: Date) -> [AppEffect] {
        switch front {
        case .watchlist:
            guard let action = settings.keys.action(for: key) else { return [] }
            return perform(action, at: now)
        case .filtering(let prompt):
            return filterKey(key, prompt: prompt, at: now)
        case .adding(var prompt):
            guard let action = TextPrompt.action(for: key) else { return [] }
            switch action {
            case .submit: return submitAdd(prompt)
            case .cancel: front = .watchlist
            case .type, .backspace:
                prompt.edit(action)
                front = .adding(prompt)
            }
            return []
        case .help:
            if KeyMap.closesOverlay(key, openedWith: settings.keys.keys(for: .toggleHelp)) { front = .watchlist }
            return []
        case .messageLog:
            if KeyMap.closesOverlay(key, openedWith: settings.keys.keys(for: .toggleMessageLog)) { front = .watchlist }
            return []
        case .listMenu(var menu):
            guard let action = menu.action(for: key) else { return [] }
            let requests = menu.update(action, lists: lists)
            front = .listMenu(menu)
            return carryOut(requests, at: now)
        case .detail(var screen):
            guard let action = screen.action(for: key) else { return [] }
            let requests = screen.update(action)
            front = .detail(screen)
            return carryOut(requests, at: now)
        case .positions(var screen):
            guard let action = screen.action(for: key) else { return [] }
            let requests = screen.update(action, rows: PositionsScreen.rows(of: portfolio))
            front = .positions(screen)
            return carryOut(requests, at: now)
        case .orders(var screen):
            guard let action = screen.action(for: key) else { return [] }
            let requests = screen.update(action, rows: OrdersScreen.rows(of: portfolio))
            front = .orders(screen)
            return carryOut(requests, at: now)
        case .ticket(var ticket):
            guard let action = ticket.action(for: key) else { return [] }
            let requests = ticket.update(action)
            front = .ticket(ticket)
            return carryOut(requests, at: now)
        case .alertDialog(var dialog):
            guard let action = dialog.action(for: key) else { return [] }
            let requests = dialog.update(action)
            front = .alertDialog(dialog)
            return carryOut(requests, at: now)
        case .alertLog(var screen):
            guard let action = screen.action(for: key) else { return [] }
            let requests = screen.update(action, alerts: alerts.alerts)
            front = .alertLog(screen)
            return carryOut(requests, at: now)
        }
    }

    /// Carries out what a screen asked for, in order.
    private mutating func carryOut(_ requests: [ScreenRequest], at now: Date) -> [AppEffect] {
        var effects: [AppEffect] = []
        for request in requests {
            switch request {
            case .close: front = .watchlist
            case .say(let kind, let text): say(kind, text, at: now)
            case .persist(let edit): effects.append(.persist(edit))
            case .showList(let index): showList(at: index, at: now)
            case .undo: effects += undo(at: now)
            case .open(let screen):
                front = screen
                if case .positions = screen { effects += askForPortfolio(at: now) }
                if case .orders = screen { effects += askForPortfolio(at: now) }
            case .effect(let effect):
                if case .fetchPortfolio = effect { effects += askForPortfolio(at: now) } else { effects.append(effect) }
            case .openTicket(let symbol, let side, let brokerID, let quantity):
                openTicket(symbol: symbol, side: side, brokerID: brokerID, quantity: quantity, at: now)
            }
        }
        return effects
    }

    private mutating func perform(_ action: WatchlistAction, at now: Date) -> [AppEffect] {
        switch action {
        case .quit:
            return [.quit]
        case .moveUp: moveSelection(by: -1)
        case .moveDown: moveSelection(by: 1)
        case .pageUp: moveSelection(by: -pageRows)
        case .pageDown: moveSelection(by: pageRows)
        case .moveToTop: moveSelection(by: -slots.count)
        case .moveToBottom: moveSelection(by: slots.count)
        case .cycleSort:
            sort = sort.next
            sortReversed = false
            rebuildRows()
            say(.info, "Sorted by \(sort.label)", at: now)
        case .reverseSort:
            sortReversed.toggle()
            rebuildRows()
            say(.info, "Sorted by \(sort.label)\(sortReversed ? ", reversed" : "")", at: now)
        case .toggleCrossBroker:
            toggleRowMode(at: now)
        case .toggleHelp:
            front = .help
        case .toggleMessageLog:
            front = .messageLog
        case .toggleAccounts:
            return toggleAccounts()
        case .dismiss:
            if accounts != nil { return toggleAccounts() }
            if currentFilter != nil {
                clearFilter(at: now)
                return []
            }
            message = nil
        case .beginAdd:
            // The prompt takes the status line; what it showed is in the log and must not come back
            // when the prompt closes.
            message = nil
            front = .adding(TextPrompt())
        case .removeSelected:
            guard let symbol = selectedRow?.key.symbol else {
                say(.info, "Nothing to remove", at: now)
                return []
            }
            return [.persist(.remove(symbol, from: currentListName))]
        case .undoRemove:
            return undo(at: now)
        case .nextList:
            showList(at: (currentListIndex + 1) % lists.count, at: now)
        case .previousList:
            showList(at: (currentListIndex + lists.count - 1) % lists.count, at: now)
        case .showList(let index):
            guard lists.indices.contains(index) else {
                say(.info, "There is no list \(index + 1); \(keyLabel("lists")) makes one", at: now)
                return []
            }
            showList(at: index, at: now)
        case .openListMenu:
            message = nil
            front = .listMenu(ListMenuScreen(selected: currentListIndex))
        case .openDetail:
            guard let symbol = selectedRow?.key.symbol else { return [] }
            message = nil
            front = .detail(DetailScreen(symbol: symbol))
        case .openPositions:
            return carryOut([.open(.positions(PositionsScreen()))], at: now)
        case .openOrders:
            return carryOut([.open(.orders(OrdersScreen()))], at: now)
        case .trade(let side):
            guard let row = selectedRow else {
                say(.info, "Add a symbol first: \(keyLabel("add")) adds one, then \(keyLabel("buy")) or \(keyLabel("sell")) opens a ticket on its row", at: now)
                return []
            }
            openTicket(symbol: row.key.symbol, side: side, brokerID: ticketBrokerID(for: row, side: side), quantity: "", at: now)
        case .setAlert:
            openAlertDialog(at: now)
        case .openAlertLog:
            openAlertLog()
        case .beginFilter:
            beginFilter()
        case .cycleTheme:
            cycleTheme(at: now)
        case .selectRow(let index):
            moveSelection(by: index - selectedIndex)
        case .scroll(let rows):
            moveSelection(by: rows)
        }
        return []
    }

    private mutating func undo(at now: Date) -> [AppEffect] {
        switch undoStack.popLast() {
        case .symbol(let symbol, let index, let list)?: return [.persist(.restore(symbol, at: index, in: list))]
        case .list(let list, let index)?: return [.persist(.restoreList(list, at: index))]
        case nil:
            say(.info, "Nothing to undo", at: now)
            return []
        }
    }

    /// Shows the list at `index`; the feed follows its symbols once the update is done.
    private mutating func showList(at index: Int, at now: Date) {
        guard lists.indices.contains(index), index != currentListIndex || slots.isEmpty else { return }
        currentListName = lists[index].name
        selectedKey = nil
        selectedIndex = 0
        forgetQuotesNotShown()
        rebuildRows()
        say(.info, "\(currentListName): \(symbols.count == 1 ? "1 symbol" : "\(symbols.count) symbols")", at: now)
    }

    /// A page is what the table shows at this terminal size, less one row of overlap.
    private var pageRows: Int {
        max(1, terminalSize.rows - 5)
    }

    // MARK: - Editing

    private mutating func submitAdd(_ prompt: TextPrompt) -> [AppEffect] {
        switch AddSymbolsInput.parse(prompt.text, existing: symbols) {
        case .rejected(let reason):
            front = .adding(prompt.refused(reason))
            return []
        case .add(let new, let alreadyListed, let invalid):
            pendingAdd = PendingAdd(text: prompt.text, alreadyListed: alreadyListed, invalid: invalid)
            // What was not added stays in the prompt, with why, to be fixed in place.
            front = invalid.isEmpty
                ? .watchlist
                : .adding(prompt.refused("not added: \(Self.reasons(invalid))", keeping: invalid.map(\.text).joined(separator: " ")))
            return [.persist(.add(new, to: currentListName))]
        }
    }

    private mutating func persisted(
        _ edit: WatchlistEdit, _ result: Result<WatchlistEditOutcome, WatchlistStoreError>, at now: Date
    ) -> [AppEffect] {
        let outcome: WatchlistEditOutcome
        switch result {
        case .success(let saved):
            outcome = saved
        case .failure(let error):
            return notSaved(edit, because: error.description, at: now)
        }
        setLists(outcome.lists)
        if let refusal = outcome.refusal {
            return notSaved(edit, because: refusal.description, at: now)
        }
        var effects: [AppEffect] = []
        if case .listMenu(var menu) = front {
            let requests = menu.saved(edit, outcome: outcome, lists: lists)
            front = .listMenu(menu)
            effects = carryOut(requests, at: now)
        }
        switch edit {
        case .add:
            let pending = pendingAdd
            pendingAdd = nil
            if let first = outcome.added.first { select(symbol: first) }
            var text = outcome.added.isEmpty ? "Nothing new to add" : "Added \(outcome.added.joined(separator: ", "))"
            if let listed = pending?.alreadyListed, !listed.isEmpty {
                text += " (already listed: \(listed.joined(separator: ", ")))"
            }
            text += unsavedNote
            if let invalid = pending?.invalid, !invalid.isEmpty {
                say(.warning, "\(text) · not added: \(Self.reasons(invalid))", at: now)
            } else {
                say(.info, text, at: now)
            }
        case .remove(let symbol, let list):
            if let index = outcome.removedIndex {
                remember(.symbol(symbol, at: index, list: list))
                say(.info, "Removed \(symbol) · \(keyLabel("undo")) to undo\(unsavedNote)", at: now)
            }
        case .restore(let symbol, _, let list):
            if list == currentListName { select(symbol: symbol) }
            say(.info, "Restored \(symbol)\(unsavedNote)", at: now)
        case .createList:
            say(.info, "Created list \(outcome.savedName ?? "") · \(keyLabel("add")) adds symbols to it\(unsavedNote)", at: now)
        case .renameList(let old, _):
            let name = outcome.savedName ?? old
            if currentListName == old { currentListName = name }
            say(.info, "Renamed list \(old) to \(name)\(unsavedNote)", at: now)
        case .deleteList(let name):
            if let list = outcome.deletedList, let index = outcome.deletedIndex {
                remember(.list(list, at: index))
            }
            say(.info, "Deleted list \(name) · u to undo\(unsavedNote)", at: now)
        case .restoreList(let list, _):
            say(.info, "Restored list \(list.name)\(unsavedNote)", at: now)
        case .moveList:
            break
        }
        announce(outcome.notes, at: now)
        return effects
    }

    /// An edit the file or the lists on disk refused: what the user did is kept where it was typed.
    private mutating func notSaved(_ edit: WatchlistEdit, because reason: String, at now: Date) -> [AppEffect] {
        switch edit {
        case .add:
            front = .adding(TextPrompt(text: pendingAdd?.text ?? "", error: "not saved: \(reason)"))
            pendingAdd = nil
        case .remove(let symbol, _):
            say(.error, "Could not remove \(symbol): \(reason)", at: now)
        case .restore(let symbol, let index, let list):
            // Kept for another try.
            remember(.symbol(symbol, at: index, list: list))
            say(.error, "Could not restore \(symbol): \(reason)", at: now)
        case .restoreList(let list, let index):
            remember(.list(list, at: index))
            say(.error, "Could not restore list \(list.name): \(reason)", at: now)
        case .createList, .renameList, .deleteList, .moveList:
            guard case .listMenu(var menu) = front else {
                say(.error, "Could not change the lists: \(reason)", at: now)
                return []
            }
            let requests = menu.refused(edit, reason: reason, lists: lists)
            front = .listMenu(menu)
            return carryOut(requests, at: now)
        }
        return []
    }

    private mutating func remember(_ undo: Undo) {
        undoStack.append(undo)
        if undoStack.count > 50 { undoStack.removeFirst() }
    }

    /// Said after an edit in a run whose list is not saved (`--symbols`), so nobody expects it next time.
    private var unsavedNote: String {
        settings.isSaved ? "" : " (this run only: --symbols lists are not saved)"
    }

    private static func reasons(_ invalid: [AddSymbolsInput.Invalid]) -> String {
        invalid.map(\.reason).joined(separator: " · ")
    }

    /// An edit can find the file corrupt (another program wrote it) and move it aside; where it went
    /// matters more than what the edit itself said.
    private mutating func announce(_ notes: [WatchlistLoadNote], at now: Date) {
        guard !notes.isEmpty else { return }
        say(.warning, notes.map(\.description).joined(separator: " · "), at: now)
    }

    /// Follow and unfollow effects that bring the followed set to the shown list's symbols, and a snapshot
    /// of the symbols newly followed so their rows fill in before the stream says anything. Every update
    /// that can change the shown list ends with it, so follows and unfollows always balance.
    mutating func followCurrentSymbols() -> [AppEffect] {
        let wanted = wantedSymbols
        guard wanted != followed else { return [] }
        var effects: [AppEffect] = []
        let gone = followed.subtracting(wanted)
        let new = wanted.subtracting(followed)
        if !gone.isEmpty { effects.append(.unfollow(gone)) }
        if !new.isEmpty {
            effects.append(.follow(new))
            // In list order, as the rows show them.
            effects.append(.fetchSnapshot(symbols.filter(new.contains) + new.subtracting(symbols).sorted()))
        }
        followed = wanted
        return effects
    }

    /// The lists as the store has them now. The shown list stays shown by name; when another window
    /// deleted it, its neighbour is shown.
    private mutating func setLists(_ new: [NamedWatchlist]) {
        guard !new.isEmpty else { return }
        let index = currentListIndex
        lists = new
        if !lists.contains(where: { $0.name == currentListName }) {
            currentListName = lists[min(index, lists.count - 1)].name
        }
        forgetQuotesNotShown()
        rebuildRows()
    }

    /// The shown list's symbols, those of positions and open orders (whose P&L is live), and the ticket's.
    private var wantedSymbols: Set<String> {
        var wanted = Set(symbols).union(portfolio.symbols).union(alerts.symbolsThatCanFire)
        if case .ticket(let ticket) = front { wanted.insert(ticket.symbol) }
        return wanted
    }

    /// Quotes of symbols no longer on screen go, so a symbol shown again starts without old prices.
    mutating func forgetQuotesNotShown() {
        quotes.keepOnly(wantedSymbols)
    }

    // MARK: - Accounts

    /// Opening the panel asks every broker with accounts at once; each row fills in as it answers.
    private mutating func toggleAccounts() -> [AppEffect] {
        guard accounts == nil else {
            accounts = nil
            return [.stopFetchingAccounts]
        }
        accounts = AccountsPanel(entries: settings.accountBrokers.map { AccountsPanelEntry(branding: $0, isLoading: true) })
        return settings.accountBrokers.isEmpty ? [] : [.fetchAccounts]
    }

    private mutating func receive(_ entry: AccountsPanelEntry) {
        guard var panel = accounts, let index = panel.entries.firstIndex(where: { $0.branding.id == entry.branding.id }) else { return }
        panel.entries[index] = entry
        accounts = panel
    }

    // MARK: - Market data

    private mutating func apply(_ update: MarketUpdate, receivedAt: Date) {
        let before = statuses
        quotes.apply(update, receivedAt: receivedAt)
        statuses.apply(update)
        announceNewFailures(since: before, in: update, at: receivedAt)
        // Sorted by symbol, the order does not depend on prices.
        if sort != .symbol { rebuildRows() }
    }

    /// A broker that has given up says so in full on the status line (the footer has to shorten it), once,
    /// e.g. "Tradier: unauthorized, check TRADIER_TOKEN".
    private mutating func announceNewFailures(since before: BrokerStatusStore, in update: MarketUpdate, at now: Date) {
        for broker in brokers {
            guard case .failed(let reason)? = update.brokerStates[broker.id],
                  before.state(for: broker.id) != .failed(reason: reason) else { continue }
            say(.error, "\(broker.name): \(reason)", at: now)
        }
    }

    // MARK: - Messages

    mutating func say(_ kind: StatusMessage.Kind, _ text: String, at now: Date) {
        // The same news from two paths (the ticket's answer and the broker's fill event) is said once.
        if let last = messageLog.last, last.kind == kind, last.text == text, now.timeIntervalSince(last.at) < 2 {
            message = last
            return
        }
        show(StatusMessage(kind, text, at: now))
    }

    /// Puts `message` on the status line and in the log.
    private mutating func show(_ message: StatusMessage) {
        self.message = message
        messageLog.append(message)
        if messageLog.count > Self.messageLogLimit { messageLog.removeFirst(messageLog.count - Self.messageLogLimit) }
    }

    /// Logs each of `messages` and puts them on the status line together, as the most severe of them.
    private mutating func show(_ messages: [StatusMessage]) {
        guard let first = messages.first else { return }
        for message in messages { show(message) }
        guard messages.count > 1 else { return }
        let kind: StatusMessage.Kind = messages.contains { $0.kind == .error } ? .error
            : messages.contains { $0.kind == .warning } ? .warning : .info
        message = StatusMessage(kind, messages.map(\.text).joined(separator: " · "), at: first.at)
    }

    // MARK: - Selection

    /// Selects the first row of `symbol` (after adding it, the user sees where it went).
    mutating func select(symbol: String) {
        guard let index = slots.firstIndex(where: { $0.key.symbol == symbol }) else { return }
        selectedKey = slots[index].key
        selectedIndex = index
    }

    public var selectedRow: WatchlistRow? {
        slots.indices.contains(selectedIndex) ? rows[selectedIndex] : nil
    }

    mutating func moveSelection(by delta: Int) {
        guard !slots.isEmpty else { return }
        selectedIndex = min(max(0, selectedIndex + delta), slots.count - 1)
        selectedKey = slots[selectedIndex].key
    }

    // MARK: - View

    public func viewState() -> WatchlistViewState {
        var view = WatchlistViewState(
            rows: rows,
            selectedIndex: slots.isEmpty ? nil : selectedIndex,
            sort: sort,
            front: front,
            brokers: statuses.statuses.map {
                BrokerStatus(
                    branding: $0.branding, state: $0.state, skippedFrames: statuses.skippedFrameCount(for: $0.branding.id),
                    route: routes[$0.branding.id] ?? .direct)
            },
            isDemo: settings.isDemo,
            message: message,
            staleAfter: settings.staleAfter,
            highlightFor: settings.highlightFor,
            accounts: accounts,
            securityWarning: settings.securityWarning,
            messageLog: messageLog,
            isSaved: settings.isSaved,
            listNames: lists.map { $0.name },
            currentList: currentListIndex,
            listSizes: lists.map { $0.symbols.count },
            detail: detail
        )
        view.portfolio = portfolio
        view.tradesLive = settings.tradesLive
        view.alerts = alerts
        view.alertLog = alertLog
        view.alertedRows = alertedRows
        view.theme = theme
        view.keys = settings.keys
        view.filter = currentFilter
        view.rowMode = rowMode
        view.sortReversed = sortReversed
        view.columns = settings.columns
        view.outlierBasisPoints = settings.outlierBasisPoints
        view.sparklineMinutes = settings.sparklineMinutes
        switch front {
        case .positions:
            view.positions = PositionsSummary(portfolio: portfolio, todayStarted: Calendar.current.startOfDay(for: viewTime)) { brokerID, symbol in
                livePrice(brokerID: brokerID, symbol: symbol)
            }
        case .ticket(let ticket):
            let buyingPower = portfolio.portfolio(for: ticket.broker.branding.id)?.balances.first?.buyingPower
            view.ticketPreview = TicketPreview(
                ticket: ticket, quote: livePrice(brokerID: ticket.broker.branding.id, symbol: ticket.symbol),
                buyingPower: buyingPower)
        default:
            break
        }
        return view
    }

    // MARK: - Rows

    /// The rows as the table shows them, read from the stores.
    public var rows: WatchlistRows {
        WatchlistRows(
            slots: slots, entries: quotes.latest, brokerStates: statuses.statesByBroker, groups: groups,
            sparklines: quotes.sparklines, mode: rowMode)
    }

    mutating func rebuildRows() {
        var built: [WatchlistRows.Slot] = []
        built.reserveCapacity(symbols.count * (rowMode == .perBroker ? brokers.count : 1))
        var groups = SymbolGroups(brokers: brokers)
        var group: [Int] = []
        for (index, symbol) in symbols.enumerated() {
            group.removeAll(keepingCapacity: true)
            for (brokerIndex, broker) in brokers.enumerated() {
                let key = QuoteKey(brandID: broker.id, symbol: symbol)
                group.append(quotes.place(for: key))
                if rowMode == .perBroker {
                    built.append(WatchlistRows.Slot(key: key, branding: broker, entry: group[group.count - 1], group: index, broker: brokerIndex))
                }
            }
            groups.append(group)
            if rowMode == .perSymbol, let slot = symbolSlot(symbol, group: index, entries: group) { built.append(slot) }
        }
        self.groups = groups
        slots = Self.sorted(built, by: sort, reversed: sortReversed, quotes: quotes.latest)
        let kept = selectedKey
        if let filter = currentFilter {
            slots = RowFilter.filter(slots, by: filter)
            // The selected row filtered out: the best match takes its place.
            if !slots.contains(where: { $0.key == kept }) { selectedIndex = 0 }
        }
        reselect()
        // A filter that hides every row keeps the selection for when it is cleared.
        if slots.isEmpty, currentFilter != nil { selectedKey = kept }
    }

    /// Display order for a sort. Rows without the sorted value go last; ties fall back to symbol, brand id.
    /// `reversed` turns the sorted value's order around (Z to A, lowest price first); rows without the
    /// value stay last and ties stay in symbol, brand id order.
    static func sorted(
        _ rows: [WatchlistRows.Slot], by sort: SortOrder, reversed: Bool = false, quotes: [QuoteEntry]
    ) -> [WatchlistRows.Slot] {
        func value(_ row: WatchlistRows.Slot) -> ExactDecimal? {
            switch sort {
            case .symbol: nil
            case .changePercent: quotes[row.entry].quote?.changePercent
            case .last: quotes[row.entry].quote?.last
            }
        }
        guard sort != .symbol else {
            guard reversed else { return rows.sorted { $0.key < $1.key } }
            return rows.sorted { $0.key.symbol == $1.key.symbol ? $0.key < $1.key : $1.key < $0.key }
        }
        return rows.sorted { lhs, rhs in
            switch (value(lhs), value(rhs)) {
            case let (l?, r?) where l != r: reversed ? l < r : l > r
            case (_?, nil): true
            case (nil, _?): false
            default: lhs.key < rhs.key
            }
        }
    }

    private mutating func reselect() {
        if let key = selectedKey, let index = slots.firstIndex(where: { $0.key == key }) {
            selectedIndex = index
        } else {
            selectedIndex = slots.isEmpty ? 0 : min(selectedIndex, slots.count - 1)
            selectedKey = slots.isEmpty ? nil : slots[selectedIndex].key
        }
    }
}
