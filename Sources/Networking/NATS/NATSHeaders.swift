/// The headers of a NATS message (HPUB / HMSG), ADR-4 (https://github.com/nats-io/nats-architecture-and-design/blob/main/adr/ADR-4.md,
/// and https://docs.nats.io/reference/reference-protocols/nats-protocol#hmsg):
///
///     NATS/1.0[ <3-digit status>[ <description>]]\r\n
///     Name: Value\r\n            (zero or more; a name may repeat)
///     \r\n
///
/// A status line is how the server speaks inside a message: `NATS/1.0 503` (no responders for a
/// request), `NATS/1.0 404 Message Not Found` (a JetStream direct get for a subject with no message),
/// `NATS/1.0 100 Idle Heartbeat` and `NATS/1.0 100 FlowControl Request` (a push consumer). Names keep
/// their case and are matched case-sensitively, as the NATS servers and clients do.
public struct NATSHeaders: Sendable, Hashable {
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var statusCode: Int?
    /// The words after the status code ("No Messages"); empty when there are none.
    public var statusDescription: String
    public var fields: [Field]

    public init(_ fields: [(name: String, value: String)] = [], statusCode: Int? = nil, statusDescription: String = "") {
        self.fields = fields.map { Field(name: $0.name, value: $0.value) }
        self.statusCode = statusCode
        self.statusDescription = statusDescription
    }

    /// The first value of `name`.
    public subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    public func values(named name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    public mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every value of `name` with `value`.
    public mutating func set(_ name: String, _ value: String) {
        fields.removeAll { $0.name == name }
        fields.append(Field(name: name, value: value))
    }

    // MARK: - Wire form

    static let version: [UInt8] = Array("NATS/1.0".utf8)

    /// The header block as sent, ending in the blank line.
    public var encoded: [UInt8] {
        var bytes = Self.version
        if let statusCode {
            bytes.append(0x20)
            bytes += Array(String(statusCode).utf8)
            if !statusDescription.isEmpty {
                bytes.append(0x20)
                bytes += Array(statusDescription.utf8)
            }
        }
        bytes += [0x0D, 0x0A]
        for field in fields {
            bytes += Array(field.name.utf8)
            bytes += [0x3A, 0x20]
            bytes += Array(field.value.utf8)
            bytes += [0x0D, 0x0A]
        }
        bytes += [0x0D, 0x0A]
        return bytes
    }

    /// Why these headers cannot be sent, nil when they can: a name must be printable ASCII without `:`,
    /// a value must not hold CR or LF (either would end the line early), and a status code has 3 digits.
    public var problem: String? {
        if let statusCode, !(100...999).contains(statusCode) { return "status code \(statusCode) is not 3 digits" }
        if statusDescription.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) { return "the status description holds a line break" }
        for field in fields {
            if field.name.isEmpty { return "a header name is empty" }
            if field.name.utf8.contains(where: { !($0 > 0x20 && $0 < 0x7F) || $0 == 0x3A }) {
                return "header name \"\(NATSProtocolError.snippet(field.name.utf8))\" must be printable ASCII without ':' or spaces"
            }
            if field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) {
                return "the value of header \(field.name) holds a line break"
            }
        }
        return nil
    }

    /// Reads a header block exactly (it must end with its blank line and hold nothing after it). Values
    /// lose surrounding spaces and tabs; bytes that are not UTF-8 become U+FFFD.
    public static func parse(_ block: some Collection<UInt8>) throws(NATSProtocolError) -> NATSHeaders {
        let bytes = Array(block)
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                guard index > start, bytes[index - 1] == 0x0D else {
                    throw NATSProtocolError("header line not terminated by CRLF")
                }
                lines.append(bytes[start..<(index - 1)])
                start = index + 1
                if lines.last!.isEmpty { break }
            }
            index += 1
        }
        guard let last = lines.last, last.isEmpty else { throw NATSProtocolError("header block does not end with a blank line") }
        guard start == bytes.count else { throw NATSProtocolError("bytes after the header block's blank line") }
        var headers = NATSHeaders()
        try headers.readStatusLine(lines[0])
        for line in lines.dropFirst().dropLast() {
            guard let colon = line.firstIndex(of: 0x3A) else {
                throw NATSProtocolError("header line without ':': \"\(NATSProtocolError.snippet(line))\"")
            }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw NATSProtocolError("invalid header name \"\(NATSProtocolError.snippet(name))\"")
            }
            let value = trimmed(line[(colon + 1)...])
            guard !value.contains(0x0D) else { throw NATSProtocolError("CR inside the value of header \(NATSProtocolError.snippet(name))") }
            headers.fields.append(Field(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
        }
        return headers
    }

    private mutating func readStatusLine(_ line: ArraySlice<UInt8>) throws(NATSProtocolError) {
        guard line.starts(with: Self.version) else {
            throw NATSProtocolError("header block does not start with NATS/1.0: \"\(NATSProtocolError.snippet(line))\"")
        }
        let rest = line.dropFirst(Self.version.count)
        guard !rest.isEmpty else { return }
        guard rest.first == 0x20 || rest.first == 0x09 else {
            throw NATSProtocolError("unknown header version \"\(NATSProtocolError.snippet(line))\"")
        }
        let status = Self.trimmed(rest)
        guard !status.isEmpty else { return }
        let code = status.prefix(3)
        guard code.count == 3, code.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), code.first != 0x30 else {
            throw NATSProtocolError("status \"\(NATSProtocolError.snippet(status))\" does not start with a 3-digit code")
        }
        let afterCode = status.dropFirst(3)
        guard afterCode.isEmpty || afterCode.first == 0x20 || afterCode.first == 0x09 else {
            throw NATSProtocolError("status \"\(NATSProtocolError.snippet(status))\" does not start with a 3-digit code")
        }
        let description = Self.trimmed(afterCode)
        guard !description.contains(0x0D) else { throw NATSProtocolError("CR inside the status line") }
        statusCode = code.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        statusDescription = String(decoding: description, as: UTF8.self)
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var result = bytes
        while let first = result.first, first == 0x20 || first == 0x09 { result.removeFirst() }
        while let last = result.last, last == 0x20 || last == 0x09 { result.removeLast() }
        return result
    }
}
