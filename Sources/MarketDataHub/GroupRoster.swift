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

    /// The symbols at least one member follows: what the group asks of the hub.
    var symbols: Set<String> { Set(followers.keys) }

    func followers(of symbol: String) -> [Member] { followers[symbol] ?? [] }

    /// Adds `member` to each of `symbols` it does not follow yet; returns the symbols no member followed
    /// before, which the group must now ask the hub for.
    mutating func add(_ member: Member, to symbols: some Sequence<String>) -> Set<String> {
        var new = Set<String>()
        for symbol in symbols {
            if let index = followers.index(forKey: symbol) {
                guard !followers.values[index].contains(where: { $0 === member }) else { continue }
                followers.values[index].append(member)
            } else {
                followers[symbol] = [member]
                new.insert(symbol)
            }
        }
        return new
    }

    /// Takes `member` off each of `symbols`; returns the symbols it was the last member of, which the
    /// group no longer needs from the hub.
    mutating func remove(_ member: Member, from symbols: some Sequence<String>) -> Set<String> {
        var gone = Set<String>()
        for symbol in symbols {
            guard let index = followers.index(forKey: symbol) else { continue }
            followers.values[index].removeAll { $0 === member }
            if followers.values[index].isEmpty {
                followers.remove(at: index)
                gone.insert(symbol)
            }
        }
        return gone
    }

    /// Everyone, for a group that ends.
    mutating func removeAll() -> [Member] {
        var seen = Set<ObjectIdentifier>()
        let all = followers.values.joined().filter { seen.insert(ObjectIdentifier($0)).inserted }
        followers = [:]
        return all
    }
}
