/// Where a connection is in its life.
public enum NATSConnectionStatus: Sendable, Hashable {
    case connecting
    case connected
    /// Lost, and trying the servers again; publications are buffered meanwhile.
    case reconnecting
    case closed
}
