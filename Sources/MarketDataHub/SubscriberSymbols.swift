/// One subscriber's symbols as the hub's state machine keeps them, and a group member's as its
/// roster does: most subscribers of a per-symbol design follow exactly one, and an array of one is a
/// 48-byte allocation (64 with malloc's header) on top of the dictionary entry, a tenth of a
/// one-symbol subscriber's cost. One symbol is kept inline; more go in an array, never a `Set`: only a
/// change of symbols needs set operations, and a set's hash table costs about twice an array's memory.
enum SubscriberSymbols: Sendable, Equatable {
    case one(String)
    case many([String])

    init(_ symbols: Set<String>) {
        if symbols.count == 1, let only = symbols.first {
            self = .one(only)
        } else {
            self = .many(Array(symbols))
        }
    }

    var set: Set<String> {
        switch self {
        case .one(let symbol): [symbol]
        case .many(let symbols): Set(symbols)
        }
    }
}
