import TextSafety

/// Where an order is in its life. A rejection carries its reason, so a reason without a rejection cannot
/// be stored.
public enum OrderStatus: Sendable, Hashable {
    /// Sent, not yet acknowledged by the broker (Alpaca's `pending_new`).
    case pending
    /// Working at the broker, nothing filled yet (Alpaca's `new` / `accepted`, Tradier's `open`).
    case accepted
    /// Some filled, the rest still working.
    case partiallyFilled
    case filled
    case cancelled
    /// A day order still open at its session's close, or a broker's own expiry.
    case expired
    /// Refused by the broker or the paper account; `reason` is the broker's or our words.
    case rejected(reason: String)
    /// Superseded by a replacement order (Alpaca's `replaced`).
    case replaced

    /// True while the order can still fill or be cancelled.
    public var isOpen: Bool {
        switch self {
        case .pending, .accepted, .partiallyFilled: true
        case .filled, .cancelled, .expired, .rejected, .replaced: false
        }
    }

    /// The wire word: `pending`, `accepted`, `partially_filled`, `filled`, `cancelled`, `expired`,
    /// `rejected`, `replaced`.
    public var name: String {
        switch self {
        case .pending: "pending"
        case .accepted: "accepted"
        case .partiallyFilled: "partially_filled"
        case .filled: "filled"
        case .cancelled: "cancelled"
        case .expired: "expired"
        case .rejected: "rejected"
        case .replaced: "replaced"
        }
    }
}

extension OrderStatus: Codable {
    private enum CodingKeys: String, CodingKey {
        case state, reason
    }

    /// `{"state":"filled"}`, `{"state":"rejected","reason":"…"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .state)
        if case .rejected(let reason) = self { try container.encode(reason, forKey: .reason) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .state)
        switch name {
        case "pending": self = .pending
        case "accepted": self = .accepted
        case "partially_filled": self = .partiallyFilled
        case "filled": self = .filled
        case "cancelled": self = .cancelled
        case "expired": self = .expired
        case "rejected": self = .rejected(reason: try container.decode(String.self, forKey: .reason))
        case "replaced": self = .replaced
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .state, in: container, debugDescription: "order state \"\(VisibleText.escaped(name))\" is unknown")
        }
    }
}
