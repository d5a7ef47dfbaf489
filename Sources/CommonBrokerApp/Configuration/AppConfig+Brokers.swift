extension AppConfig {
    /// The `brokers` object: the demo brokers plus one section per `BrokerSchema`.
    public struct Brokers: Sendable, Equatable {
        public var demo: DemoSection
        /// Keyed by schema id; holds a section for every schema in `BrokerSchema.all`.
        private var sections: [String: BrokerSection]

        public init(demo: DemoSection = DemoSection()) {
            self.demo = demo
            sections = Dictionary(uniqueKeysWithValues: BrokerSchema.all.map { ($0.id, BrokerSection(defaultsFor: $0)) })
        }

        /// The section of the broker with this id, or `nil` if no schema has that id.
        public subscript(id id: String) -> BrokerSection? {
            get { sections[id] }
            set {
                guard sections[id] != nil, let newValue, newValue.id == id else { return }
                sections[id] = newValue
            }
        }

        /// All real brokers' sections, in `BrokerSchema.all` order.
        public var all: [BrokerSection] { BrokerSchema.all.compactMap { sections[$0.id] } }
        public var enabled: [BrokerSection] { all.filter(\.enabled) }

        public var tradier: BrokerSection {
            get { section(.tradier) }
            set { self[id: BrokerSchema.tradier.id] = newValue }
        }

        public var alpaca: BrokerSection {
            get { section(.alpaca) }
            set { self[id: BrokerSchema.alpaca.id] = newValue }
        }

        public var finnhub: BrokerSection {
            get { section(.finnhub) }
            set { self[id: BrokerSchema.finnhub.id] = newValue }
        }

        public var polygon: BrokerSection {
            get { section(.polygon) }
            set { self[id: BrokerSchema.polygon.id] = newValue }
        }

        private func section(_ schema: BrokerSchema) -> BrokerSection {
            sections[schema.id] ?? BrokerSection(defaultsFor: schema)
        }

        static let demoKey = "demo"
        static var validKeys: [String] { [demoKey] + BrokerSchema.all.map(\.id) }

        init(from value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) {
            let object = try reader.object(value, at: keyPath, validKeys: Self.validKeys)
            self.init()
            if let value = object[Self.demoKey] {
                demo = try DemoSection(from: value, at: object.path(Self.demoKey), reader: reader)
            }
            for schema in BrokerSchema.all {
                if let value = object[schema.id] {
                    sections[schema.id] = try BrokerSection(schema: schema, from: value, at: object.path(schema.id), reader: reader)
                }
            }
        }
    }
}
