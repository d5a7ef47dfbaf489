/// Where a message a JetStream push consumer delivered sits, read from its reply subject (the subject
/// an ack would go to; ADR-15, https://github.com/nats-io/nats-architecture-and-design/blob/main/adr/ADR-15.md):
///
///     $JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.<timestamp ns>.<pending>
///     $JS.ACK.<domain>.<account hash>.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.<timestamp ns>.<pending>.<token>
///
/// nats-server 2.9 sends the first form (seen: `$JS.ACK.KV_b.cr0UbxY6.1.2.2.1795564975626807553.0`);
/// newer servers may send the second (a domain of `_` means none). The consumer sequence is what an
/// ordered consumer checks for gaps; `pending` reaching 0 means it has caught up with the stream.
public struct NATSJetStreamDelivery: Sendable, Hashable {
    public var stream: String
    public var consumer: String
    public var delivered: UInt64
    public var streamSequence: UInt64
    public var consumerSequence: UInt64
    /// When the stream stored the message, in nanoseconds since 1970.
    public var timestamp: Int64
    public var pending: UInt64

    public init(stream: String, consumer: String, delivered: UInt64, streamSequence: UInt64, consumerSequence: UInt64, timestamp: Int64, pending: UInt64) {
        self.stream = stream
        self.consumer = consumer
        self.delivered = delivered
        self.streamSequence = streamSequence
        self.consumerSequence = consumerSequence
        self.timestamp = timestamp
        self.pending = pending
    }

    /// nil for a subject that is not a JetStream ack subject of either form.
    public init?(replySubject: String) {
        let tokens = replySubject.split(separator: ".", omittingEmptySubsequences: false)
        guard tokens.count >= 9, tokens[0] == "$JS", tokens[1] == "ACK" else { return nil }
        // The old form has exactly 9 tokens; the new one 11 or more (the token at the end is optional).
        let base: Int
        switch tokens.count {
        case 9: base = 2
        case 11...: base = 4
        default: return nil
        }
        guard let delivered = UInt64(tokens[base + 2]), let streamSequence = UInt64(tokens[base + 3]),
              let consumerSequence = UInt64(tokens[base + 4]), let timestamp = Int64(tokens[base + 5]),
              let pending = UInt64(tokens[base + 6]),
              !tokens[base].isEmpty, !tokens[base + 1].isEmpty
        else { return nil }
        self.init(
            stream: String(tokens[base]), consumer: String(tokens[base + 1]), delivered: delivered, streamSequence: streamSequence,
            consumerSequence: consumerSequence, timestamp: timestamp, pending: pending)
    }
}
