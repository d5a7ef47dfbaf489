import Domain

/// A broker's stream protocol as a value: it is fed decoded frames and the hub's subscription changes, and
/// says what to send and emit. `StreamSocketSession` runs it under a lock; tests drive it directly.
///
/// The per-message steps (`decode(frame:into:)`, `receive`) append to buffers the session owns and reuses, rather than
/// returning arrays: every quote of every streaming broker passes through them, and their arrays were
/// two allocations and frees per message, a tenth of the market-data thread's instructions.
protocol StreamSessionMachine: Sendable {
    associatedtype Event: Sendable
    /// The broker's frame decoder: a pure function, so the session runs it outside its lock. On a throw
    /// the events it appended before stay; `decode(frame:into:)` takes them back out.
    associatedtype Decoder: StreamFrameDecoder where Decoder.Event == Event

    /// Names the broker in error descriptions ("polygon stream: …").
    static var brokerName: String { get }

    /// Feeds decoded events to the machine, appending what it asks for to `actions`, in order.
    mutating func receive(_ events: ArraySlice<Event>, into actions: inout [StreamSessionAction])
    mutating func subscribe(_ symbols: Set<String>) -> [StreamSessionAction]
    mutating func unsubscribe(_ symbols: Set<String>) -> [StreamSessionAction]
}

extension StreamSessionMachine {
    /// Decodes one text frame, appending its events to `events`; nil when it decoded, else the action
    /// that reports it skipped, its events taken back out. A frame that is not JSON is one bad message,
    /// not a broken connection: it is skipped and reported (the hub counts them), and the session goes
    /// on. Ending the session instead made a broker that sends one bad frame among good ones reconnected
    /// twice a second. Only WebSocket protocol errors (bad UTF-8, a bad frame header), which the
    /// connection's messages throw, end it.
    static func decode(frame text: String, into events: inout [Event]) -> StreamSessionAction? {
        let start = events.count
        do {
            try Decoder.decode(text, into: &events)
            return nil
        } catch {
            events.removeSubrange(start...)
            return .emit(.skippedFrame(reason: StreamSkippedFrameReason.describe(error)))
        }
    }
}
