import Domain

/// A broker's stream protocol as a value: it is fed decoded frames and the hub's subscription changes, and
/// returns what to send and emit. `StreamSocketSession` runs it under a lock; tests drive it directly.
protocol StreamSessionMachine: Sendable {
    associatedtype Event: Sendable

    /// Names the broker in error descriptions ("polygon stream: …").
    static var brokerName: String { get }

    /// Decodes one text frame. Runs outside the session's lock, so it must not touch state.
    static func decode(_ text: String) throws -> [Event]

    mutating func receive(_ events: [Event]) -> [StreamSessionAction]
    mutating func subscribe(_ symbols: Set<String>) -> [StreamSessionAction]
    mutating func unsubscribe(_ symbols: Set<String>) -> [StreamSessionAction]
}
