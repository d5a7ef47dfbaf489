extension AppConfig {
    /// One secret of a broker: written in the config file, or read from an environment variable.
    /// Its descriptions never show the secret, so printing a config cannot leak it.
    public struct Credential: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The config key, such as `token` or `secretKey`.
        public let key: String
        /// The secret as written in the config file, if it is.
        public var value: String?
        public var environmentVariable: String

        public init(key: String, value: String? = nil, environmentVariable: String) {
            self.key = key
            self.value = value
            self.environmentVariable = environmentVariable
        }

        /// The secret to use. A non-empty environment variable wins over the file, as with most
        /// command-line tools, so a one-off `TRADIER_TOKEN=… commonbroker` needs no file edit.
        public func resolved(in environment: [String: String]) -> String? {
            if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty {
                return fromEnvironment
            }
            return value
        }

        public var description: String {
            value == nil ? "\(key) from $\(environmentVariable)" : "\(key) (set in config file, hidden)"
        }

        public var debugDescription: String { "Credential(\(description))" }

        /// `dump` and debuggers walk the mirror, so the secret is replaced there too.
        public var customMirror: Mirror {
            Mirror(self, children: [
                "key": key, "value": value == nil ? "nil" : "<hidden>", "environmentVariable": environmentVariable,
            ])
        }
    }
}
