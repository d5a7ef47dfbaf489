import Domain
import TextSafety

/// The two error shapes Tradier sends as JSON, with 400 or inside a 200 (reference §1.4):
/// `{"errors":{"error":"…" | ["…",…]}}` and the Apigee gateway's
/// `{"fault":{"faultstring":"…","detail":{"errorcode":"…"}}}`.
public struct TradierErrorBody: Decodable, Sendable {
    public var errors: Errors?
    public var fault: Fault?

    public struct Errors: Decodable, Sendable {
        public var error: OneOrMany<String>?
    }

    public struct Fault: Decodable, Sendable {
        public var faultstring: String?
        public var detail: Detail?

        public struct Detail: Decodable, Sendable {
            public var errorcode: String?
        }
    }

    /// Longest message shown; the rest is cut with "…".
    static let messageLimit = 160

    /// The message a user can act on, or nil when the body is not one of these shapes.
    public var message: String? {
        var parts: [String] = []
        if let errors = errors?.error?.elements, !errors.isEmpty {
            parts.append(errors.joined(separator: "; "))
        }
        if let fault {
            let text = [fault.faultstring, fault.detail?.errorcode.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
            parts.append(text.isEmpty ? "gateway fault" : text)
        }
        guard !parts.isEmpty else { return nil }
        let joined = VisibleText.escaped(parts.joined(separator: "; "))
        return joined.count > Self.messageLimit ? joined.prefix(Self.messageLimit) + "…" : joined
    }
}
