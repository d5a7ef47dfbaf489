/// What a row of the watchlist is (`c` toggles): one (symbol, broker) quote, or one symbol consolidated
/// across brokers (`CrossBrokerQuote`: the best bid and ask with whose they are, the freshest last, how far
/// the brokers disagree).
public enum WatchlistRowMode: Sendable, Hashable {
    case perBroker
    case perSymbol

    public var toggled: WatchlistRowMode { self == .perBroker ? .perSymbol : .perBroker }
}
