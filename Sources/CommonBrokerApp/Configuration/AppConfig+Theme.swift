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

        /// `colors`: a color for any role, by name, palette number or #rrggbb.
        static func colors(_ value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) -> [ColorRole: ColorSpec] {
            let object = try reader.object(value, at: keyPath, validKeys: ColorRole.allCases.map(\.rawValue))
            var colors: [ColorRole: ColorSpec] = [:]
            for role in ColorRole.allCases {
                guard let value = object[role.rawValue] else { continue }
                let text = try reader.string(value, at: object.path(role.rawValue))
                guard let color = ColorSpec(parsing: text) else {
                    throw reader.invalid(
                        value, at: object.path(role.rawValue), "must be \(ColorSpec.accepted), found \"\(VisibleText.escaped(text))\"")
                }
                colors[role] = color
            }
            return colors
        }
    }
}
