/// The peer broke the NATS client protocol (https://docs.nats.io/reference/reference-protocols/nats-protocol):
/// a control line that is not one, a size that is not a number or is over the limit, a payload not
/// followed by CRLF. Nothing after it can be trusted, so the connection ends (and reconnects).
/// `detail` quotes at most a short, printable-ASCII snippet of what arrived.
public struct NATSProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    public var detail: String

    public init(_ detail: String) {
        self.detail = detail
    }

    public var description: String { "NATS protocol error: \(detail)" }

    /// `bytes` as printable ASCII for an error message: anything else becomes `?`, at most `limit`
    /// characters, so a hostile peer cannot paint on the terminal through an error.
    static func snippet(_ bytes: some Collection<UInt8>, limit: Int = 40) -> String {
        var text = ""
        for byte in bytes.prefix(limit) {
            text.unicodeScalars.append(byte >= 0x20 && byte < 0x7F ? Unicode.Scalar(byte) : "?")
        }
        return bytes.count > limit ? text + "…" : text
    }
}
