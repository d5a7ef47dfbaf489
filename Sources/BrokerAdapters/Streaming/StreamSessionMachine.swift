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

extension StreamSessionMachine {
    /// One text frame, decoded or not. A frame that is not JSON is one bad message, not a broken
    /// connection: it is skipped and reported (the hub counts them), and the session goes on. Ending the
    /// session instead made a broker that sends one bad frame among good ones reconnected twice a second.
    /// Only WebSocket protocol errors (bad UTF-8, a bad frame header), which `messages` throws, end it.
    mutating func receive(frame decoded: Result<[Event], any Error>) -> [StreamSessionAction] {
        switch decoded {
        case .success(let events): receive(events)
        case .failure(let error): [.emit(.skippedFrame(reason: StreamSkippedFrameReason.describe(error)))]
        }
    }
}
