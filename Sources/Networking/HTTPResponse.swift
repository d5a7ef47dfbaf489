import Foundation

/// What a server answered, as bytes: the servicer never interprets it; status mapping and decoding do.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    /// Header names lower-cased (HTTP names are case-insensitive).
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The first bytes of the body as text, control characters replaced, for error messages.
    public func bodyExcerpt(limit: Int = 120) -> String {
        let text = String(decoding: body.prefix(limit), as: UTF8.self)
        let cleaned = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        return body.count > limit ? cleaned + "…" : cleaned
    }
}
