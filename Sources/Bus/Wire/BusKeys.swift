import Networking

/// The names of everything the bus keeps in its KV bucket, one place for all of them.
///
/// Every free-text part (a symbol such as `BRK.B` or `^GSPC`, a broker id, an instance's `host:pid`) is
/// one token escaped by `NATSTokenEscaping`, so a `.` in a ticker never splits a key and no text can
/// become a wildcard.
///
/// - `quote.<broker>.<symbol>`: the latest quote the leader of `broker` received (`BusQuoteWire`).
/// - `state.<broker>`: the leader's connection to `broker` (`BusBrokerState`).
/// - `lease.<broker>`: who leads `broker` (`BusLease`); created only when absent, renewed by revision.
/// - `demand.<instance>.<broker>`: the symbols one process shows (`BusDemand`), refreshed as a heartbeat.
public enum BusKeys {
    public static func quote(broker: String, symbol: String) -> String {
        "quote.\(token(broker)).\(token(symbol))"
    }

    /// Every quote key of `broker`: what a follower watches.
    public static func quotes(broker: String) -> String {
        "quote.\(token(broker)).>"
    }

    public static func state(broker: String) -> String {
        "state.\(token(broker))"
    }

    public static func lease(broker: String) -> String {
        "lease.\(token(broker))"
    }

    /// `lease.<broker>` and `state.<broker>`: the two keys of `broker` with two tokens, in one watch.
    public static func leaseAndState(broker: String) -> String {
        "*.\(token(broker))"
    }

    public static func demand(instance: String, broker: String) -> String {
        "demand.\(token(instance)).\(token(broker))"
    }

    /// Every process's demand for `broker`.
    public static func demands(broker: String) -> String {
        "demand.*.\(token(broker))"
    }

    /// The symbol of a quote key, or the instance of a demand key; nil for a key of another shape.
    public static func parse(_ key: String) -> Key? {
        let tokens = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        switch (tokens.first, tokens.count) {
        case ("quote", 3):
            guard let broker = NATSTokenEscaping.unescape(tokens[1]), let symbol = NATSTokenEscaping.unescape(tokens[2]) else { return nil }
            return .quote(broker: broker, symbol: symbol)
        case ("state", 2):
            return NATSTokenEscaping.unescape(tokens[1]).map { .state(broker: $0) }
        case ("lease", 2):
            return NATSTokenEscaping.unescape(tokens[1]).map { .lease(broker: $0) }
        case ("demand", 3):
            guard let instance = NATSTokenEscaping.unescape(tokens[1]), let broker = NATSTokenEscaping.unescape(tokens[2]) else { return nil }
            return .demand(instance: instance, broker: broker)
        default:
            return nil
        }
    }

    public enum Key: Sendable, Hashable {
        case quote(broker: String, symbol: String)
        case state(broker: String)
        case lease(broker: String)
        case demand(instance: String, broker: String)
    }

    private static func token(_ text: String) -> String {
        NATSTokenEscaping.escape(text)
    }
}
