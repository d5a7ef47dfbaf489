extension AppConfig {
    /// `brokers.demo`: the fake brokers of demo mode, which need no account and no network.
    public struct DemoSection: Sendable, Equatable {
        /// Also show the demo brokers next to real ones. With no real broker enabled the demo runs anyway.
        public var enabled: Bool
        /// Seeds the random walks so that two runs show the same prices; `nil` picks a new seed each run.
        public var seed: UInt64?
        public var tickIntervalMilliseconds: Int
        /// The stale threshold when only the demo runs, in place of the top-level `staleAfterSeconds`:
        /// short, so Gamma Flaky's outages (12–20 s at the default tick) show the stale mark.
        public var staleAfterSeconds: Int

        public static let tickIntervalMillisecondsRange = 10...60_000

        public init(enabled: Bool = false, seed: UInt64? = 42, tickIntervalMilliseconds: Int = 500, staleAfterSeconds: Int = 5) {
            self.enabled = enabled
            self.seed = seed
            self.tickIntervalMilliseconds = tickIntervalMilliseconds
            self.staleAfterSeconds = staleAfterSeconds
        }

        public var tickInterval: Duration { .milliseconds(tickIntervalMilliseconds) }

        static let validKeys = ["enabled", "seed", "tickIntervalMs", "staleAfterSeconds"]

        init(from value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) {
            let object = try reader.object(value, at: keyPath, validKeys: Self.validKeys)
            self.init()
            if let value = object["enabled"] { enabled = try reader.bool(value, at: object.path("enabled")) }
            if let value = object["seed"] {
                if value.isNull {
                    seed = nil
                } else {
                    guard let number = value.numberValue else {
                        throw reader.wrongType(value, at: object.path("seed"), expected: "a number or null")
                    }
                    guard let exact = number.uint64Value else {
                        throw reader.invalid(
                            value, at: object.path("seed"),
                            "must be a whole number from 0 to \(UInt64.max), found \(number.literal)"
                        )
                    }
                    seed = exact
                }
            }
            if let value = object["tickIntervalMs"] {
                tickIntervalMilliseconds = try reader.integer(
                    value, at: object.path("tickIntervalMs"), in: Self.tickIntervalMillisecondsRange
                )
            }
            if let value = object["staleAfterSeconds"] {
                staleAfterSeconds = try reader.integer(value, at: object.path("staleAfterSeconds"), in: AppConfig.staleAfterSecondsRange)
            }
        }
    }
}
