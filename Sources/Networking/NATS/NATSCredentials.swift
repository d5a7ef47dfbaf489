/// How a connection proves who it is (https://docs.nats.io/running-a-nats-service/configuration/securing_nats/auth_intro):
/// a user and password, or a token, sent in CONNECT. Where they come from (an environment variable, a
/// file) is the caller's business; here they are only ever written into CONNECT. `description` never
/// shows a secret, and `secretValues` is what every error and event is scrubbed of.
public enum NATSCredentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    case none
    case userPassword(user: String, password: String)
    case token(String)

    public var description: String {
        switch self {
        case .none: "no credentials"
        case .userPassword(let user, _): "user \(user) with a password"
        case .token: "a token"
        }
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["credentials": description])
    }

    /// What must never appear in text that leaves the connection.
    var secretValues: [String] {
        switch self {
        case .none: []
        case .userPassword(_, let password): password.isEmpty ? [] : [password]
        case .token(let token): token.isEmpty ? [] : [token]
        }
    }

    func apply(to options: inout NATSConnectOptions) {
        switch self {
        case .none: break
        case .userPassword(let user, let password):
            options.user = user
            options.password = password
        case .token(let token):
            options.authToken = token
        }
    }
}
