/// What a connection's I/O thread still has to write, as a value: one contiguous run of bytes (so a
/// write takes as much as the kernel will, not one operation per system call) with the boundaries and
/// kinds of the operations in it.
///
/// The kinds decide what survives a lost connection. Publications (PUB, HPUB) and the PINGs of
/// `flush()` stay queued for the next server, in order, as NATS clients keep a reconnect buffer: an
/// operation partly written is written again whole (the server drops an incomplete operation, so this
/// cannot duplicate it). Control operations (SUB, UNSUB, a PONG, a keepalive PING) are dropped: the
/// subscriptions are sent afresh after the next CONNECT, and the rest belongs to the old connection.
/// Counting: what `wrote` reports as finished lets the owner release publication bytes against its
/// limit and pair each PING written with the PONG that will answer it.
struct NATSOutbox: Sendable {
    enum Kind: Sendable, Hashable {
        case publication
        case control
        /// A PING; `flushID` names the `flush()` waiting for its PONG (nil for a keepalive ping).
        case ping(flushID: Int?)
    }

    /// What one `wrote` call finished.
    struct Finished: Sendable, Hashable {
        var publicationBytes = 0
        /// One entry per PING now wholly written, in order.
        var pings: [Int?] = []
    }

    private struct Operation: Sendable, Hashable {
        var end: Int
        var kind: Kind
    }

    private var bytes: [UInt8] = []
    /// The first byte not yet written.
    private var written = 0
    private var operations: [Operation] = []
    /// The first operation not wholly written, and where it starts.
    private var head = 0
    private var headStart = 0

    var isEmpty: Bool { written == bytes.count }
    var byteCount: Int { bytes.count - written }
    var operationCount: Int { operations.count - head }

    /// What to hand to the next write: everything not yet written.
    var unwritten: ArraySlice<UInt8> { bytes[written...] }

    mutating func append(_ operation: some Collection<UInt8>, kind: Kind) {
        guard !operation.isEmpty else { return }
        bytes.append(contentsOf: operation)
        operations.append(Operation(end: bytes.count, kind: kind))
    }

    /// `count` more bytes reached the kernel.
    mutating func wrote(_ count: Int) -> Finished {
        precondition(count >= 0 && written + count <= bytes.count, "wrote more than was queued")
        written += count
        var finished = Finished()
        while head < operations.count, operations[head].end <= written {
            let operation = operations[head]
            switch operation.kind {
            case .publication: finished.publicationBytes += operation.end - headStart
            case .ping(let flushID): finished.pings.append(flushID)
            case .control: break
            }
            headStart = operation.end
            head += 1
        }
        compactIfWorthwhile()
        return finished
    }

    /// The connection is gone: rewinds an operation partly written, keeps publications and flush
    /// pings, drops the rest.
    mutating func connectionLost() {
        written = headStart
        var kept: [UInt8] = []
        var keptOperations: [Operation] = []
        var start = headStart
        for operation in operations[head...] {
            switch operation.kind {
            case .publication, .ping(flushID: .some):
                kept += bytes[start..<operation.end]
                keptOperations.append(Operation(end: kept.count, kind: operation.kind))
            case .control, .ping(flushID: nil):
                break
            }
            start = operation.end
        }
        bytes = kept
        operations = keptOperations
        written = 0
        head = 0
        headStart = 0
    }

    /// Puts control operations (the SUBs of a new connection) before everything queued. Only between
    /// connections, when nothing is partly written.
    mutating func prepend(_ operationsBytes: [[UInt8]]) {
        precondition(written == headStart, "prepend with an operation partly written")
        var newBytes: [UInt8] = []
        var newOperations: [Operation] = []
        for operation in operationsBytes where !operation.isEmpty {
            newBytes += operation
            newOperations.append(Operation(end: newBytes.count, kind: .control))
        }
        let shift = newBytes.count - written
        newBytes += bytes[written...]
        newOperations += operations[head...].map { Operation(end: $0.end + shift, kind: $0.kind) }
        bytes = newBytes
        operations = newOperations
        written = 0
        head = 0
        headStart = 0
    }

    /// Empties the outbox (the connection is closed for good). Returns the publication bytes and flush
    /// pings that were never written.
    mutating func removeAll() -> Finished {
        var dropped = Finished()
        var start = headStart
        for operation in operations[head...] {
            switch operation.kind {
            case .publication: dropped.publicationBytes += operation.end - start
            case .ping(let flushID): dropped.pings.append(flushID)
            case .control: break
            }
            start = operation.end
        }
        self = NATSOutbox()
        return dropped
    }

    /// Drops written bytes once they are at least half the buffer, so appends stay amortized O(1).
    private mutating func compactIfWorthwhile() {
        if written == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
            operations.removeAll(keepingCapacity: true)
            written = 0
            head = 0
            headStart = 0
        } else if headStart >= 1 << 16, headStart * 2 >= bytes.count {
            bytes.removeSubrange(0..<headStart)
            operations.removeSubrange(0..<head)
            for index in operations.indices { operations[index].end -= headStart }
            written -= headStart
            head = 0
            headStart = 0
        }
    }
}
