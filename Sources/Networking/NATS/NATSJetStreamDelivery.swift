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
    ///
    /// Read byte by byte in one pass: this runs for every message a watch delivers, and splitting the
    /// subject into substrings cost more than the rest of the delivery.
    public init?(replySubject: String) {
        var subject = replySubject
        guard let parsed = subject.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> NATSJetStreamDelivery? {
        // Where each token ends: at most 12 tokens in either form, so a stack buffer, no array.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 12) { ends in
            var count = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: ".") {
                guard count < 12 else { return nil }
                ends[count] = index
                count += 1
            }
            return parse(bytes, tokenEnds: UnsafeBufferPointer(rebasing: ends[..<count]))
        }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, tokenEnds ends: UnsafeBufferPointer<Int>) -> NATSJetStreamDelivery? {
        let count = ends.count
        func token(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            let from = index == 0 ? 0 : ends[index - 1] + 1
            return UnsafeBufferPointer(rebasing: bytes[from..<ends[index]])
        }
        func number(_ index: Int) -> UInt64? {
            let digits = token(index)
            guard !digits.isEmpty, digits.count <= 20 else { return nil }
            var value: UInt64 = 0
            for digit in digits {
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
                let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) = times.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
                guard !overflowTimes, !overflowSum else { return nil }
                value = sum
            }
            return value
        }
        guard count >= 9, token(0).elementsEqual("$JS".utf8), token(1).elementsEqual("ACK".utf8) else { return nil }
        // The old form has exactly 9 tokens; the new one 11 or more (the token at the end is optional).
        let base: Int
        switch count {
        case 9: base = 2
        case 11...: base = 4
        default: return nil
        }
        guard let delivered = number(base + 2), let streamSequence = number(base + 3),
              let consumerSequence = number(base + 4), let timestamp = number(base + 5), timestamp <= UInt64(Int64.max),
              let pending = number(base + 6),
              !token(base).isEmpty, !token(base + 1).isEmpty
        else { return nil }
        return NATSJetStreamDelivery(
            stream: String(decoding: token(base), as: UTF8.self), consumer: String(decoding: token(base + 1), as: UTF8.self),
            delivered: delivered, streamSequence: streamSequence, consumerSequence: consumerSequence,
            timestamp: Int64(timestamp), pending: pending)
    }
}
