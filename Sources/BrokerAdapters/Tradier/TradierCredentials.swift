import Foundation

/// The access token Tradier wants as `Authorization: Bearer …`, and the variable it came from, which
/// errors name ("check TRADIER_TOKEN"). Descriptions and mirrors never show the token.
public struct TradierCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// nil or empty when the user has not configured one.
    public var token: String?
    public var tokenVariable: String

    public init(token: String?, tokenVariable: String = "TRADIER_TOKEN") {
        self.token = token
        self.tokenVariable = tokenVariable
    }

    /// The token, unless it is missing or blank.
    var usableToken: String? {
        guard let token, !token.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return token
    }

    public var description: String {
        usableToken == nil ? "no token (set \(tokenVariable))" : "token from \(tokenVariable) (hidden)"
    }

    public var debugDescription: String { "TradierCredentials(\(description))" }

    public var customMirror: Mirror {
        Mirror(self, children: ["token": usableToken == nil ? "nil" : "<hidden>", "tokenVariable": tokenVariable])
    }
}
