/// Which orders to list: the three choices Alpaca's `GET /v2/orders?status=` offers, which every broker
/// can answer by filtering on `OrderStatus.isOpen`.
public enum OrderStatusFilter: String, Sendable, Hashable, Codable, CaseIterable {
    /// Still working: pending, accepted, partially filled.
    case open
    /// Done: filled, cancelled, expired, rejected, replaced.
    case closed
    case all

    public func includes(_ status: OrderStatus) -> Bool {
        switch self {
        case .open: status.isOpen
        case .closed: !status.isOpen
        case .all: true
        }
    }
}
