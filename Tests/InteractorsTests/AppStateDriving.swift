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
    var saved: [String]
    /// Every effect so far, in order, saves included.
    private(set) var effects: [AppEffect] = []
    var now = t0

    init(
        brokers: [ServiceBranding] = [alpha], symbols: [String], isDemo: Bool = false, isSaved: Bool = true,
        accountBrokers: [ServiceBranding] = [], terminalSize: ScreenSize = ScreenSize(columns: 100, rows: 30)
    ) {
        state = AppState(
            brokers: brokers, symbols: symbols,
            settings: AppState.Settings(isDemo: isDemo, isSaved: isSaved, accountBrokers: accountBrokers),
            terminalSize: terminalSize)
        saved = symbols
    }

    /// Sends `event`, then answers every save it asks for; returns the effects other than saves.
    @discardableResult
    mutating func send(_ event: AppEvent) -> [AppEffect] {
        var queue = [event]
        var produced: [AppEffect] = []
        while !queue.isEmpty {
            for effect in state.update(queue.removeFirst(), at: now) {
                effects.append(effect)
                if case .persist(let edit) = effect {
                    queue.append(.persisted(edit, .success(save(edit))))
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

    /// Opens the add prompt, types `text` and presses Enter.
    @discardableResult
    mutating func add(_ text: String) -> [AppEffect] {
        press(.character("a")) + text.flatMap { send(.key(.character($0))) } + press(.enter)
    }

    mutating func apply(_ update: MarketUpdate) {
        send(.market(update))
    }

    private mutating func save(_ edit: WatchlistEdit) -> WatchlistEditOutcome {
        switch edit {
        case .add(let symbols):
            let added = symbols.filter { !saved.contains($0) }
            saved += added
            return WatchlistEditOutcome(symbols: saved, added: added)
        case .remove(let symbol):
            let index = saved.firstIndex(of: symbol)
            if let index { saved.remove(at: index) }
            return WatchlistEditOutcome(symbols: saved, removedIndex: index)
        case .restore(let symbol, let index):
            if !saved.contains(symbol) { saved.insert(symbol, at: min(max(0, index), saved.count)) }
            return WatchlistEditOutcome(symbols: saved)
        }
    }

    /// The followed set the follow and unfollow effects so far add up to.
    var followedByEffects: Set<String> {
        var followed = Set<String>()
        for effect in effects {
            switch effect {
            case .follow(let symbols): followed.formUnion(symbols)
            case .unfollow(let symbols): followed.subtract(symbols)
            default: continue
            }
        }
        return followed
    }
}
