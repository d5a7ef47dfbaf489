import Domain
import Foundation
import Interactors
import Stores
import TerminalKit

/// Drives an `AppState` the way the runtime does, with no tasks: events in, effects out. Saving is
/// answered at once from an in-memory list, as `WatchlistStore` without a file answers.
struct AppStateDriver {
    var state: AppState
    /// What the pretend watchlist file holds.
    var book: WatchlistBook
    /// The first list's symbols in the pretend file.
    var saved: [String] { book.lists[0].symbols }
    /// Every effect so far, in order, saves included.
    private(set) var effects: [AppEffect] = []
    /// The followed set the follow and unfollow effects so far add up to.
    private(set) var followedByEffects = Set<String>()
    var now = t0

    init(
        brokers: [ServiceBranding] = [alpha], symbols: [String], isDemo: Bool = false, isSaved: Bool = true,
        accountBrokers: [ServiceBranding] = [], tradingBrokers: [TradingBroker] = [],
        terminalSize: ScreenSize = ScreenSize(columns: 100, rows: 30), keys: KeyBindings = .standard
    ) {
        state = AppState(
            brokers: brokers, symbols: symbols,
            settings: AppState.Settings(
                isDemo: isDemo, isSaved: isSaved, accountBrokers: accountBrokers, tradingBrokers: tradingBrokers, keys: keys),
            terminalSize: terminalSize)
        book = WatchlistBook(symbols: symbols)
    }

    /// Sends `event`, then answers every save it asks for; returns the effects other than saves.
    @discardableResult
    mutating func send(_ event: AppEvent) -> [AppEffect] {
        var queue = [event]
        var produced: [AppEffect] = []
        while !queue.isEmpty {
            for effect in state.update(queue.removeFirst(), at: now) {
                effects.append(effect)
                if case .follow(let symbols) = effect { followedByEffects.formUnion(symbols) }
                if case .unfollow(let symbols) = effect { followedByEffects.subtract(symbols) }
                if case .persist(let edit) = effect {
                    queue.append(.persisted(edit, .success(save(edit))))
                } else if case .persistAlerts(let edit) = effect {
                    queue.append(.alertsPersisted(edit, .success(edit.apply(to: &book.alerts, at: now))))
                } else {
                    produced.append(effect)
                }
            }
        }
        return produced
    }

    @discardableResult
    mutating func press(_ keys: KeyPress...) -> [AppEffect] {
        keys.flatMap { send(.key($0)) }
    }

    /// Types `text` one character at a time.
    @discardableResult
    mutating func type(_ text: String) -> [AppEffect] {
        text.flatMap { send(.key(.character($0))) }
    }

    /// Opens the add prompt, types `text` and presses Enter.
    @discardableResult
    mutating func add(_ text: String) -> [AppEffect] {
        press(.character("a")) + text.flatMap { send(.key(.character($0))) } + press(.enter)
    }

    mutating func apply(_ update: MarketUpdate) {
        send(.market(update))
    }

    /// What `AppRuntime` does with `WatchlistStore`, on an in-memory book.
    private mutating func save(_ edit: WatchlistEdit) -> WatchlistEditOutcome {
        var outcome: WatchlistEditOutcome
        do throws(WatchlistBook.EditError) {
            outcome = try edit.apply(to: &book)
        } catch {
            outcome = WatchlistEditOutcome(lists: [], refusal: error)
        }
        outcome.lists = book.lists
        return outcome
    }
}
