/// The error object of a JetStream API answer
/// (https://docs.nats.io/reference/jetstream/api: `{"error": {"code": 400, "err_code": 10071,
/// "description": "wrong last sequence: 1"}}`). `code` is HTTP-like; `errorCode` names the case
/// (nats-server's errors.json), stable across versions.
public struct NATSJetStreamAPIError: Sendable, Hashable, Codable, CustomStringConvertible {
    /// "wrong last sequence: N": a compare-and-set publish found another last sequence.
    public static let wrongLastSequence = 10071
    /// "stream not found".
    public static let streamNotFound = 10059
    /// "stream name already in use with a different configuration".
    public static let streamNameInUse = 10058

    public var code: Int
    public var errorCode: Int?
    public var detail: String

    public init(code: Int, errorCode: Int?, detail: String) {
        self.code = code
        self.errorCode = errorCode
        self.detail = detail
    }

    enum CodingKeys: String, CodingKey {
        case code
        case errorCode = "err_code"
        case detail = "description"
    }

    public var description: String {
        "\(detail) (\(code)\(errorCode.map { ", err_code \($0)" } ?? ""))"
    }
}
