/// The frames a connection's I/O thread still has to write, in order, and the rule that governs them
/// once a close starts: after an endpoint sends a Close frame it must not send any more data frames
/// (RFC 6455 §5.5.1), so our close frame is always the last frame queued.
///
/// When a close starts (ours, our echo of the peer's, or our answer to a protocol error), data frames
/// not yet begun are dropped and their completions handed back to be failed: written after the close
/// they would break the RFC, and written before it they would delay the close behind a backlog on a
/// socket that may have stopped draining, for messages the peer is about to stop processing anyway.
/// A data frame partly on the wire is finished (a frame cannot be cut; §5.5.1 also lets an endpoint
/// finish its current message before closing), and control frames already queued, such as a pong owed
/// for a ping that came before the close, keep their place ahead of it.
///
/// A pure value, so the rule is tested without sockets; `Completion` is whatever the caller waits on.
struct WebSocketOutbox<Completion> {
    private enum Kind {
        case data
        case control
        case close
    }

    private struct Entry {
        var bytes: [UInt8]
        var kind: Kind
        var written = 0
        /// Who waits for a data frame to reach the kernel.
        var completion: Completion?
    }

    private var entries: [Entry] = []
    /// Our close frame is queued (or already written): nothing more may be.
    private(set) var isClosing = false

    var isEmpty: Bool { entries.isEmpty }

    /// The part of the first frame not yet written; nil when nothing is queued.
    var unwritten: ArraySlice<UInt8>? {
        entries.first.map { $0.bytes[$0.written...] }
    }

    /// Queues an encoded data frame. Once closing it is refused, and `completion` comes back to be failed.
    mutating func appendData(_ bytes: [UInt8], completion: Completion) -> Completion? {
        guard !isClosing else { return completion }
        entries.append(Entry(bytes: bytes, kind: .data, completion: completion))
        return nil
    }

    /// Queues an encoded ping or pong; dropped once closing, since nothing may follow the close frame.
    mutating func appendControl(_ bytes: [UInt8]) {
        guard !isClosing else { return }
        entries.append(Entry(bytes: bytes, kind: .control))
    }

    /// Queues our close frame (only the first one counts) and returns the completions of the data frames
    /// it displaced, which were never begun and never will be.
    mutating func startClose(_ closeFrame: [UInt8]) -> [Completion] {
        guard !isClosing else { return [] }
        isClosing = true
        var displaced: [Completion] = []
        entries.removeAll { entry in
            guard entry.kind == .data, entry.written == 0 else { return false }
            if let completion = entry.completion { displaced.append(completion) }
            return true
        }
        entries.append(Entry(bytes: closeFrame, kind: .close))
        return displaced
    }

    /// Records that `count` more bytes of the first frame reached the kernel. Returns the completion of a
    /// data frame that is now wholly written.
    mutating func wrote(_ count: Int) -> Completion? {
        precondition(!entries.isEmpty && entries[0].written + count <= entries[0].bytes.count, "wrote more than was queued")
        entries[0].written += count
        guard entries[0].written == entries[0].bytes.count else { return nil }
        return entries.removeFirst().completion
    }

    /// Empties the outbox (the connection is gone) and returns every completion still waiting.
    mutating func removeAll() -> [Completion] {
        defer { entries.removeAll() }
        return entries.compactMap(\.completion)
    }
}
