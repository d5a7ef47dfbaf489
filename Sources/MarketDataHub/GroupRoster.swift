/// Who in one `MarketFeedGroup` follows which symbol: the group's own count of its members' demand.
///
/// The hub's demand counts the group once per symbol that at least one member follows; this counts the
/// members behind it, so the upstream subscribes when a symbol's first member joins and unsubscribes
/// when its last one leaves, exactly as if every member were a subscriber of its own. A value: the hub
/// changes it on its actor, and each batch's fan-out walks a copy taken under the group's lock.
struct GroupRoster<Member: AnyObject & Sendable>: Sendable {
    /// Per symbol, its members in the order they joined. An array, not a set: a batch walks it, and a
    /// member costs one reference here (a set's hash table would cost several times that).
    private(set) var followers: [String: [Member]] = [:]
    /// Per member, what it follows: the reverse of `followers`, kept here rather than in the member (a
    /// lock of its own, for a value only the hub touches, cost a thousand one-symbol members 112 bytes
    /// each in three allocations).
    private var followed: [ObjectIdentifier: SubscriberSymbols] = [:]

    /// What a change of one member's symbols means for the group.
    struct Change: Equatable {
        /// Symbols the member follows now and did not before.
        var added: Set<String> = []
        /// Of those, the ones no member followed before: the group must now ask the hub for them.
        var newToGroup: Set<String> = []
        /// Symbols the member no longer follows that no member follows any more: the group drops them.
        var goneFromGroup: Set<String> = []

        /// The added symbols the group already followed: their values are in the hub's cache, owed to
        /// this member alone.
        var alreadyFollowed: Set<String> { added.subtracting(newToGroup) }
        var changesGroup: Bool { !newToGroup.isEmpty || !goneFromGroup.isEmpty }
    }

    /// The symbols at least one member follows: what the group asks of the hub.
    var symbols: Set<String> { Set(followers.keys) }

    func followers(of symbol: String) -> [Member] { followers[symbol] ?? [] }

    func symbols(of member: Member) -> Set<String> {
        followed[ObjectIdentifier(member)]?.set ?? []
    }

    /// `member` follows exactly `symbols` from now on (none: it has left).
    mutating func setSymbols(_ symbols: Set<String>, of member: Member) -> Change {
        let id = ObjectIdentifier(member)
        let old = followed[id]?.set ?? []
        var change = Change(added: symbols.subtracting(old))
        for symbol in old.subtracting(symbols) {
            guard let index = followers.index(forKey: symbol) else { continue }
            followers.values[index].removeAll { $0 === member }
            if followers.values[index].isEmpty {
                followers.remove(at: index)
                change.goneFromGroup.insert(symbol)
            }
        }
        for symbol in change.added {
            if let index = followers.index(forKey: symbol) {
                followers.values[index].append(member)
            } else {
                followers[symbol] = [member]
                change.newToGroup.insert(symbol)
            }
        }
        followed[id] = symbols.isEmpty ? nil : SubscriberSymbols(symbols)
        return change
    }

    /// Everyone, for a group that ends.
    mutating func removeAll() -> [Member] {
        var seen = Set<ObjectIdentifier>()
        let all = followers.values.joined().filter { seen.insert(ObjectIdentifier($0)).inserted }
        followers = [:]
        followed = [:]
        return all
    }
}
