extension AppConfig {
    /// What one real broker's section may contain. Adding a broker to the config is adding a schema
    /// here (and to `all`); parsing, validation, defaults and the key list in errors follow from it.
    public struct BrokerSchema: Sendable, Hashable {
        /// The section's key under `brokers`, and the broker's stable brand id.
        public let id: String
        public let environments: [BrokerEnvironment]
        public let defaultPollIntervalSeconds: Int
        /// Whether quotes come over the broker's WebSocket unless the file says `"stream": false`.
        public let streamsByDefault: Bool
        public let credentials: [CredentialField]
        public let choices: [Choice]

        public init(
            id: String, environments: [BrokerEnvironment], defaultPollIntervalSeconds: Int, streamsByDefault: Bool = true,
            credentials: [CredentialField], choices: [Choice] = []
        ) {
            self.id = id
            self.environments = environments
            self.defaultPollIntervalSeconds = defaultPollIntervalSeconds
            self.streamsByDefault = streamsByDefault
            self.credentials = credentials
            self.choices = choices
        }

        /// A secret the broker needs, given in the file as `key` or read from the variable named by
        /// `key + "Env"` (default `defaultEnvironmentVariable`).
        public struct CredentialField: Sendable, Hashable {
            public let key: String
            public let defaultEnvironmentVariable: String

            public init(key: String, defaultEnvironmentVariable: String) {
                self.key = key
                self.defaultEnvironmentVariable = defaultEnvironmentVariable
            }

            public var environmentKey: String { key + "Env" }
        }

        /// A broker-specific setting with a fixed set of values, such as Alpaca's data feed.
        public struct Choice: Sendable, Hashable {
            public let key: String
            public let allowed: [String]
            public let defaultValue: String

            public init(key: String, allowed: [String], defaultValue: String) {
                self.key = key
                self.allowed = allowed
                self.defaultValue = defaultValue
            }
        }

        public static let commonKeys = ["enabled", "environment", "baseURL", "stream", "streamURL", "pollIntervalSeconds"]
        public static let pollIntervalSecondsRange = 1...3_600

        /// Every key the section accepts, in the order the documentation lists them.
        public var validKeys: [String] {
            Self.commonKeys + credentials.flatMap { [$0.key, $0.environmentKey] } + choices.map(\.key)
        }

        public static let tradier = BrokerSchema(
            id: "tradier", environments: [.production, .sandbox], defaultPollIntervalSeconds: 5,
            credentials: [CredentialField(key: "token", defaultEnvironmentVariable: "TRADIER_TOKEN")]
        )

        public static let alpaca = BrokerSchema(
            id: "alpaca", environments: [.production, .sandbox], defaultPollIntervalSeconds: 5,
            credentials: [
                CredentialField(key: "keyId", defaultEnvironmentVariable: "APCA_API_KEY_ID"),
                CredentialField(key: "secretKey", defaultEnvironmentVariable: "APCA_API_SECRET_KEY"),
            ],
            // Free accounts may only use "iex"; "sip" (all US exchanges) needs a paid data plan.
            choices: [Choice(key: "feed", allowed: ["iex", "sip", "delayed_sip", "boats", "overnight"], defaultValue: "iex")]
        )

        public static let finnhub = BrokerSchema(
            id: "finnhub", environments: [.production], defaultPollIntervalSeconds: 5,
            credentials: [CredentialField(key: "token", defaultEnvironmentVariable: "FINNHUB_TOKEN")]
        )

        // The free plan allows 5 requests a minute, so the default stays under it, and has no WebSocket
        // access (the socket answers "not authorized"), so polling is the default.
        public static let polygon = BrokerSchema(
            id: "polygon", environments: [.production], defaultPollIntervalSeconds: 15, streamsByDefault: false,
            credentials: [CredentialField(key: "apiKey", defaultEnvironmentVariable: "POLYGON_API_KEY")]
        )

        /// The real brokers, in the order they are listed in files, help and errors.
        public static let all: [BrokerSchema] = [tradier, alpaca, finnhub, polygon]
    }
}
