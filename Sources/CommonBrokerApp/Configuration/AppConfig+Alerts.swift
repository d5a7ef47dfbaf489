extension AppConfig {
    /// What happens when a price alert fires, besides the highlighted row and the alert log:
    ///
    ///     "alerts": {"bell": true, "desktop": false}
    ///
    /// `bell` rings the terminal bell (on by default); `desktop` also shows a desktop notification through
    /// `notify-send` when it is on the PATH (off by default: a notification daemon is not everywhere).
    public struct Alerts: Sendable, Equatable {
        public var bell: Bool
        public var desktop: Bool

        public init(bell: Bool = true, desktop: Bool = false) {
            self.bell = bell
            self.desktop = desktop
        }

        static let validKeys = ["bell", "desktop"]

        init(from value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) {
            let object = try reader.object(value, at: keyPath, validKeys: Self.validKeys)
            self.init()
            if let value = object["bell"] { bell = try reader.bool(value, at: object.path("bell")) }
            if let value = object["desktop"] { desktop = try reader.bool(value, at: object.path("desktop")) }
        }
    }
}
