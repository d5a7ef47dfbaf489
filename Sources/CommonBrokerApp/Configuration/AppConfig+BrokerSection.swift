import Foundation

extension AppConfig {
    /// The settings of one real broker, shaped by its `BrokerSchema`.
    public struct BrokerSection: Sendable, Equatable {
        /// The schema's id: the key under `brokers` and the broker's brand id.
        public let id: String
        public var enabled: Bool
        public var environment: BrokerEnvironment
        /// Overrides the environment's server, e.g. to point at a local mock; `nil` uses the broker's own.
        public var baseURL: URL?
        /// Quotes over the broker's WebSocket (true) or by polling its REST API (false).
        public var stream: Bool
        /// Overrides the WebSocket's URL; `nil` derives it from `baseURL`, or uses the broker's own.
        public var streamURL: URL?
        public var pollIntervalSeconds: Int
        /// In schema order, one per `BrokerSchema.CredentialField`.
        public var credentials: [Credential]
        /// Values of the schema's `choices`, by key; every choice has one (its default if not set).
        public var choices: [String: String]

        /// The section as it is when the file does not mention the broker: disabled, production.
        public init(defaultsFor schema: BrokerSchema) {
            id = schema.id
            enabled = false
            environment = .production
            baseURL = nil
            stream = schema.streamsByDefault
            streamURL = nil
            pollIntervalSeconds = schema.defaultPollIntervalSeconds
            credentials = schema.credentials.map {
                Credential(key: $0.key, environmentVariable: $0.defaultEnvironmentVariable)
            }
            choices = Dictionary(uniqueKeysWithValues: schema.choices.map { ($0.key, $0.defaultValue) })
        }

        public var pollInterval: Duration { .seconds(pollIntervalSeconds) }

        public func credential(_ key: String) -> Credential? { credentials.first(where: { $0.key == key }) }

        public func choice(_ key: String) -> String? { choices[key] }

        /// Credentials that neither the file nor the environment provide.
        public func missingCredentials(in environment: [String: String]) -> [Credential] {
            credentials.filter { $0.resolved(in: environment) == nil }
        }

        init(schema: BrokerSchema, from value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) {
            let object = try reader.object(value, at: keyPath, validKeys: schema.validKeys)
            self.init(defaultsFor: schema)
            if let value = object["enabled"] { enabled = try reader.bool(value, at: object.path("enabled")) }
            if let value = object["environment"] {
                environment = try reader.choice(value, at: object.path("environment"), among: schema.environments)
            }
            if let value = object["baseURL"] {
                baseURL = value.isNull ? nil : try reader.webURL(value, at: object.path("baseURL"))
            }
            if let value = object["stream"] { stream = try reader.bool(value, at: object.path("stream")) }
            if let value = object["streamURL"] {
                streamURL = value.isNull ? nil : try reader.webSocketURL(value, at: object.path("streamURL"))
            }
            if let value = object["pollIntervalSeconds"] {
                pollIntervalSeconds = try reader.integer(
                    value, at: object.path("pollIntervalSeconds"), in: BrokerSchema.pollIntervalSecondsRange
                )
            }
            for (index, field) in schema.credentials.enumerated() {
                if let value = object[field.key], !value.isNull {
                    credentials[index].value = try Self.secret(value, at: object.path(field.key), reader: reader)
                }
                if let value = object[field.environmentKey] {
                    credentials[index].environmentVariable = try Self.environmentVariableName(
                        value, at: object.path(field.environmentKey), reader: reader
                    )
                }
            }
            for choice in schema.choices {
                if let value = object[choice.key] {
                    choices[choice.key] = try reader.choice(value, at: object.path(choice.key), allowed: choice.allowed)
                }
            }
        }

        /// Messages about a secret describe it and never echo it: errors end up in terminals and logs.
        private static func secret(_ value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) -> String {
            guard let secret = value.stringValue else {
                throw reader.wrongType(value, at: keyPath, expected: "a string or null")
            }
            if secret.isEmpty {
                throw reader.invalid(value, at: keyPath, "is empty; write the credential, or null to read it from the environment")
            }
            if secret.first?.isWhitespace == true || secret.last?.isWhitespace == true {
                throw reader.invalid(value, at: keyPath, "starts or ends with whitespace; paste the credential without it")
            }
            return secret
        }

        private static func environmentVariableName(
            _ value: JSONValue, at keyPath: String, reader: ConfigReader
        ) throws(ConfigError) -> String {
            let name = try reader.string(value, at: keyPath)
            let scalars = name.unicodeScalars
            let isName = scalars.first.map { !("0"..."9").contains($0) } == true
                && scalars.allSatisfy { $0 == "_" || ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            guard isName else {
                throw reader.invalid(
                    value, at: keyPath,
                    "must be an environment variable name (letters, digits and _, not starting with a digit), found \"\(name)\""
                )
            }
            return name
        }
    }
}
