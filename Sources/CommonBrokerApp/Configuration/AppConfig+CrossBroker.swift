import Domain

extension AppConfig {
    /// `crossBroker`: how the watchlist compares brokers quoting the same symbol (README, "Across brokers").
    ///
    ///     "crossBroker": {"outlierBasisPoints": 50}
    ///
    /// A broker whose last price is more than `outlierBasisPoints` from the median of the other live
    /// brokers' is flagged on its row. 50 (0.5 %) by default: feeds of a liquid US stock agree within a few
    /// basis points, so 50 catches a delayed feed or a bad print without flagging the ordinary jitter
    /// between venues.
    public struct CrossBroker: Sendable, Equatable {
        public var outlierBasisPoints: ExactDecimal

        public init(outlierBasisPoints: ExactDecimal = 50) {
            self.outlierBasisPoints = outlierBasisPoints
        }

        static let validKeys = ["outlierBasisPoints"]
        /// From a hundredth of a basis point to 100 %.
        public static let outlierBasisPointsRange = ExactDecimal(units: ExactDecimal.unitsPerOne / 100)...ExactDecimal(10_000)

        init(from value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) {
            let object = try reader.object(value, at: keyPath, validKeys: Self.validKeys)
            self.init()
            if let value = object["outlierBasisPoints"] {
                outlierBasisPoints = try reader.decimal(value, at: object.path("outlierBasisPoints"), in: Self.outlierBasisPointsRange)
            }
        }
    }
}
