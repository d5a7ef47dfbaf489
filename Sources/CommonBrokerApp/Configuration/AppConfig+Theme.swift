import Domain

extension AppConfig {
    /// The colors that carry meaning: a price that went up or down.
    public struct Theme: Sendable, Equatable {
        public var up: BrandColor
        public var down: BrandColor

        public init(up: BrandColor = .green, down: BrandColor = .red) {
            self.up = up
            self.down = down
        }

        static let validKeys = ["up", "down"]

        init(from value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) {
            let object = try reader.object(value, at: keyPath, validKeys: Self.validKeys)
            self.init()
            if let value = object["up"] { up = try reader.choice(value, at: object.path("up"), of: BrandColor.self) }
            if let value = object["down"] {
                down = try reader.choice(value, at: object.path("down"), of: BrandColor.self)
            }
        }
    }
}
