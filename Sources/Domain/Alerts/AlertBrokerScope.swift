/// Whose quotes an alert watches.
public enum AlertBrokerScope: Sendable, Hashable {
    /// Every broker's: the first whose price meets the condition fires it.
    case any
    /// One broker's, by its id (`demo-alpha`, `tradier`).
    case broker(String)

    public func includes(brokerID: String) -> Bool {
        switch self {
        case .any: true
        case .broker(let id): id == brokerID
        }
    }

    /// `any` or the broker id, as the file and `alerts list` write it.
    public var storedName: String {
        switch self {
        case .any: "any"
        case .broker(let id): id
        }
    }
}
