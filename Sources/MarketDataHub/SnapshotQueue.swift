/// One snapshot source's refreshes: at most one request under way, and the symbols asked for meanwhile.
///
/// Each refresh used to be a task of its own, queued behind the broker's rate limit. Polygon allows five
/// requests a minute, so a symbol added every five seconds grew a backlog without end (the one-hour
/// soak's memory growth: each waiting task held about 8 KB), and the quota went on symbols removed long
/// before their turn came. Now what is asked while a request is under way waits here as one set, and
/// goes out in one request when that ends, less the symbols nobody follows any more: a source costs one
/// task and a set no larger than its followed symbols, however fast the list changes.
struct SnapshotQueue: Sendable {
    /// A request is under way.
    private(set) var isBusy = false
    /// Asked for while it was.
    private(set) var waiting: Set<String> = []

    /// The symbols to ask for now, or nil when they wait for the request under way.
    mutating func ask(_ symbols: Set<String>) -> Set<String>? {
        guard !symbols.isEmpty else { return nil }
        guard isBusy else {
            isBusy = true
            return symbols
        }
        waiting.formUnion(symbols)
        return nil
    }

    /// The request under way ended: the next one, made of the waiting symbols still followed, or nil
    /// when there are none and the source is idle again.
    mutating func finished(following isFollowed: (String) -> Bool) -> Set<String>? {
        let next = waiting.filter(isFollowed)
        waiting = []
        isBusy = !next.isEmpty
        return isBusy ? next : nil
    }

    /// Nothing under way or waiting (the hub shut down).
    mutating func clear() {
        self = SnapshotQueue()
    }
}
