import Domain

extension AppConfig {
    /// `trading`: whether orders may reach a real broker's production API.
    public struct Trading: Sendable, Equatable {
        /// Off unless the user writes it: orders go only to sandboxes, paper accounts and the paper broker.
        /// On, a live order needs its symbol typed again, and the header says LIVE TRADING.
        public var allowLive: Bool

        public init(allowLive: Bool = false) {
            self.allowLive = allowLive
        }

        static let validKeys = ["allowLive"]

        init(from value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) {
            let object = try reader.object(value, at: keyPath, validKeys: Self.validKeys)
            self.init()
            if let value = object["allowLive"] { allowLive = try reader.bool(value, at: object.path("allowLive")) }
        }
    }

    /// `paper`: the paper broker, which fills orders from the live quotes of another broker.
    public struct Paper: Sendable, Equatable {
        public var enabled: Bool
        /// The broker whose quotes fill paper orders; nil means the first demo broker when the demo runs,
        /// else the first real broker enabled.
        public var source: String?
        public var startingCash: ExactDecimal
        public var commissionPerShare: ExactDecimal
        public var minimumCommission: ExactDecimal
        /// Short sales are refused unless this is on.
        public var allowShort: Bool

        public static let cashRange: ClosedRange<ExactDecimal> = 0...1_000_000_000
        public static let commissionRange: ClosedRange<ExactDecimal> = 0...1_000

        public init(
            enabled: Bool = true, source: String? = nil, startingCash: ExactDecimal = 100_000,
            commissionPerShare: ExactDecimal = 0, minimumCommission: ExactDecimal = 0, allowShort: Bool = false
        ) {
            self.enabled = enabled
            self.source = source
            self.startingCash = startingCash
            self.commissionPerShare = commissionPerShare
            self.minimumCommission = minimumCommission
            self.allowShort = allowShort
        }

        static let validKeys = ["enabled", "source", "startingCash", "commissionPerShare", "minimumCommission", "allowShort"]

        init(from value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) {
            let object = try reader.object(value, at: keyPath, validKeys: Self.validKeys)
            self.init()
            if let value = object["enabled"] { enabled = try reader.bool(value, at: object.path("enabled")) }
            if let value = object["source"], !value.isNull { source = try reader.string(value, at: object.path("source")) }
            if let value = object["startingCash"] {
                startingCash = try reader.decimal(value, at: object.path("startingCash"), in: Self.cashRange)
            }
            if let value = object["commissionPerShare"] {
                commissionPerShare = try reader.decimal(value, at: object.path("commissionPerShare"), in: Self.commissionRange)
            }
            if let value = object["minimumCommission"] {
                minimumCommission = try reader.decimal(value, at: object.path("minimumCommission"), in: Self.commissionRange)
            }
            if let value = object["allowShort"] { allowShort = try reader.bool(value, at: object.path("allowShort")) }
        }
    }
}
