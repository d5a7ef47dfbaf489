import Foundation

/// Writes NATS protocol operations as bytes
/// (https://docs.nats.io/reference/reference-protocols/nats-protocol):
///
///     PUB <subject> [reply-to] <#bytes>\r\n<payload>\r\n
///     HPUB <subject> [reply-to] <#header bytes> <#total bytes>\r\n<headers><payload>\r\n
///     SUB <subject> [queue group] <sid>\r\n
///     UNSUB <sid> [max_msgs]\r\n
///     MSG <subject> <sid> [reply-to] <#bytes>\r\n<payload>\r\n
///     HMSG <subject> <sid> [reply-to] <#header bytes> <#total bytes>\r\n<headers><payload>\r\n
///     CONNECT {json}\r\n   INFO {json}\r\n   PING\r\n   PONG\r\n   +OK\r\n   -ERR '<text>'\r\n
///
/// Fields are separated by one space. The encoder trusts its input: subjects, sids and header names are
/// checked where they enter (`NATSSubject`, `NATSHeaders.problem`), so what it writes always parses back
/// to the same frame.
public enum NATSProtocolEncoder {
    public static func encode(_ frame: NATSFrame) -> [UInt8] {
        var bytes: [UInt8] = []
        append(frame, to: &bytes)
        return bytes
    }

    public static func append(_ frame: NATSFrame, to bytes: inout [UInt8]) {
        switch frame {
        case .info(let info):
            line(["INFO", json(info)], to: &bytes)
        case .connect(let options):
            line(["CONNECT", json(options)], to: &bytes)
        case .publish(let subject, let replyTo, let headers, let payload):
            appendPublish(subject: subject, replyTo: replyTo, headers: headers, payload: payload, to: &bytes)
        case .subscribe(let subject, let queueGroup, let sid):
            line(["SUB", subject] + (queueGroup.map { [$0] } ?? []) + [sid], to: &bytes)
        case .unsubscribe(let sid, let maxMessages):
            line(["UNSUB", sid] + (maxMessages.map { [String($0)] } ?? []), to: &bytes)
        case .message(let message):
            let head = ["MSG", message.subject, message.sid] + (message.replyTo.map { [$0] } ?? [])
            withPayload(head, headerBytes: message.headers?.encoded, payload: message.payload, to: &bytes)
        case .malformedMessage(let message):
            let head = ["MSG", message.subject, message.sid] + (message.replyTo.map { [$0] } ?? [])
            withPayload(head, headerBytes: message.headerBytes, payload: message.payload, to: &bytes)
        case .ping:
            line(["PING"], to: &bytes)
        case .pong:
            line(["PONG"], to: &bytes)
        case .ok:
            line(["+OK"], to: &bytes)
        case .error(let text):
            line(["-ERR", "'\(text)'"], to: &bytes)
        }
    }

    /// PUB or HPUB straight into `bytes`: the connection's hot path.
    public static func appendPublish(subject: String, replyTo: String?, headers: NATSHeaders?, payload: some Collection<UInt8>, to bytes: inout [UInt8]) {
        appendPublish(subject: subject, replyTo: replyTo, headerBytes: headers?.encoded, payload: payload, to: &bytes)
    }

    /// The same with the header block already encoded (the connection measures it first). Written
    /// straight into `bytes`, without the field list the other operations build.
    static func appendPublish(subject: String, replyTo: String?, headerBytes: [UInt8]?, payload: some Collection<UInt8>, to bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + subject.utf8.count + (replyTo?.utf8.count ?? 0) + (headerBytes?.count ?? 0) + payload.count + 32)
        bytes += headerBytes == nil ? pub : hpub
        bytes += subject.utf8
        if let replyTo {
            bytes.append(0x20)
            bytes += replyTo.utf8
        }
        bytes.append(0x20)
        if let headerBytes {
            appendDecimal(headerBytes.count, to: &bytes)
            bytes.append(0x20)
            appendDecimal(headerBytes.count + payload.count, to: &bytes)
            bytes += crlf
            bytes += headerBytes
        } else {
            appendDecimal(payload.count, to: &bytes)
            bytes += crlf
        }
        bytes += payload
        bytes += crlf
    }

    private static let pub: [UInt8] = Array("PUB ".utf8)
    private static let hpub: [UInt8] = Array("HPUB ".utf8)

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        guard value > 0 else {
            bytes.append(0x30)
            return
        }
        var digits: [UInt8] = []
        var rest = value
        while rest > 0 {
            digits.append(UInt8(0x30 + rest % 10))
            rest /= 10
        }
        bytes += digits.reversed()
    }

    /// `head` then the sizes (one, or two with headers, the operation's name gaining its H), CRLF, the
    /// header block, the payload, CRLF.
    private static func withPayload(_ head: [String], headerBytes: [UInt8]?, payload: some Collection<UInt8>, to bytes: inout [UInt8]) {
        var fields = head
        if let headerBytes {
            fields[0] = "H" + fields[0]
            fields += [String(headerBytes.count), String(headerBytes.count + payload.count)]
        } else {
            fields.append(String(payload.count))
        }
        bytes.reserveCapacity(bytes.count + 64 + (headerBytes?.count ?? 0) + payload.count)
        line(fields, to: &bytes)
        if let headerBytes { bytes += headerBytes }
        bytes += payload
        bytes += crlf
    }

    private static func line(_ fields: [String], to bytes: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(0x20) }
            bytes += field.utf8
        }
        bytes += crlf
    }

    private static let crlf: [UInt8] = [0x0D, 0x0A]

    /// Sorted keys, so the same value always gives the same bytes (tests compare them).
    private static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
