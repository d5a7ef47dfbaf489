import Domain

/// A broker's stream protocol as a value: it is fed decoded frames and the hub's subscription changes, and
/// says what to send and emit. `StreamSocketSession` runs it under a lock; tests drive it directly.
///
/// The per-message steps (`decode`, `receive`) append to buffers the session owns and reuses, rather than
/// returning arrays: every quote of every streaming broker passes through them, and their arrays were
/// two allocations and frees per message, a tenth of the market-data thread's instructions.
protocol StreamSessionMachine: Sendable {
    associatedtype Event: Sendable
    /// The broker's frame decoder: a pure function, so the session runs it outside its lock. On a throw
    /// the events it appended before stay; the session drops them.
    associatedtype Decoder: StreamFrameDecoder where Decoder.Event == Event

    /// Names the broker in error descriptions ("polygon stream: …").
    static var brokerName: String { get }

    /// Feeds decoded events to the machine, appending what it asks for to `actions`, in order.
    mutating func receive(_ events: ArraySlice<Event>, into actions: inout [StreamSessionAction])
    mutating func subscribe(_ symbols: Set<String>) -> [StreamSessionAction]
    mutating func unsubscribe(_ symbols: Set<String>) -> [StreamSessionAction]
}

extension StreamSessionMachine {
    /// One text frame's events.
    static func decode(_ text: String) throws -> [Event] {
        try Decoder.decode(text)
    }

    /// What the machine asks for after `events`.
    mutating func receive(_ events: [Event]) -> [StreamSessionAction] {
        var actions: [StreamSessionAction] = []
        receive(events[...], into: &actions)
        return actions
    }

    /// One text frame, decoded or not. A frame that is not JSON is one bad message, not a broken
    /// connection: it is skipped and reported (the hub counts them), and the session goes on. Ending the
    /// session instead made a broker that sends one bad frame among good ones reconnected twice a second.
    /// Only WebSocket protocol errors (bad UTF-8, a bad frame header), which `messages` throws, end it.
    mutating func receive(frame decoded: Result<[Event], any Error>) -> [StreamSessionAction] {
        switch decoded {
        case .success(let events): receive(events)
        case .failure(let error): [Self.skipped(error)]
        }
    }

    /// What a frame that does not decode (`error`) emits.
    static func skipped(_ error: any Error) -> StreamSessionAction {
        .emit(.skippedFrame(reason: StreamSkippedFrameReason.describe(error)))
    }
}
