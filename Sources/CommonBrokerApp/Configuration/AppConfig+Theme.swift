import Domain
import Interactors
import TerminalKit
import TerminalUI
import TextSafety

extension AppConfig {
    /// The theme to start with and the colors the user chose over it.
    ///
    ///     "theme": "light",
    ///     "colors": {"up": "#00a000", "down": "red", "header": "blue"}
    ///
    /// The older form `"theme": {"up": "green", "down": "red"}` still works: it colors rising and
    /// falling prices over the dark theme.
    public struct Theme: Sendable, Equatable {
        public var name: ThemeName
        /// Roles the user colored (`colors`, or `theme.up` / `theme.down` in the older form).
        public var colors: [ColorRole: ColorSpec]
        /// Brokers the user colored (`"colors": {"broker.polygon": "#ff8800"}`), by broker id: their glyph
        /// and name everywhere.
        public var brokerColors: [String: ColorSpec] = [:]

        public init(name: ThemeName = .dark, colors: [ColorRole: ColorSpec] = [:]) {
            self.name = name
            self.colors = colors
        }

        /// The keys of the older object form.
        static let validKeys = ["up", "down"]

        init(from value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) {
            self.init()
            if value.stringValue != nil {
                name = try reader.choice(value, at: keyPath, of: ThemeName.self)
                return
            }
            guard value.objectMembers != nil else {
                throw reader.wrongType(
                    value, at: keyPath,
                    expected: "a theme name (" + ThemeName.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + ")")
            }
            let object = try reader.object(value, at: keyPath, validKeys: Self.validKeys)
            for (key, role) in [("up", ColorRole.up), ("down", .down)] {
                guard let value = object[key] else { continue }
                let color = try reader.choice(value, at: object.path(key), of: BrandColor.self)
                colors[role] = .basic(TerminalColor(color))
            }
        }

        /// The brokers whose color `colors` may set, as `broker.<id>`.
        static let colorableBrokerIDs = ["alpaca", "finnhub", "polygon", "tradier", "paper", "manual", "demo-alpha", "demo-beta", "demo-gamma"]

        /// `colors`: a color for any role, and for any broker as `broker.<id>`, by name, palette number or
        /// #rrggbb.
        static func colors(
            _ value: JSONValue, at keyPath: String, reader: ConfigReader
        ) throws(ConfigError) -> (roles: [ColorRole: ColorSpec], brokers: [String: ColorSpec]) {
            let brokerKeys = colorableBrokerIDs.map { "broker." + $0 }
            let object = try reader.object(value, at: keyPath, validKeys: ColorRole.allCases.map(\.rawValue) + brokerKeys)
            func color(_ key: String) throws(ConfigError) -> ColorSpec? {
                guard let value = object[key] else { return nil }
                let text = try reader.string(value, at: object.path(key))
                guard let color = ColorSpec(parsing: text) else {
                    throw reader.invalid(value, at: object.path(key), "must be \(ColorSpec.accepted), found \"\(VisibleText.escaped(text))\"")
                }
                return color
            }
            var roles: [ColorRole: ColorSpec] = [:]
            for role in ColorRole.allCases {
                if let chosen = try color(role.rawValue) { roles[role] = chosen }
            }
            var brokers: [String: ColorSpec] = [:]
            for id in colorableBrokerIDs {
                if let chosen = try color("broker." + id) { brokers[id] = chosen }
            }
            return (roles, brokers)
        }
    }
}
