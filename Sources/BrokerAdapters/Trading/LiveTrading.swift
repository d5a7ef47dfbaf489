/// Whether this run may send orders to a broker's live (real-money) environment: what the config's
/// `"trading": {"allowLive": true}` says. Paper and sandbox environments never need it. Off unless said,
/// so a broker built without it can only ever trade paper money.
public enum LiveTrading: Sendable, Hashable {
    case notAllowed
    case allowed

    public init(allowLive: Bool) {
        self = allowLive ? .allowed : .notAllowed
    }
}
