import Domain
import Foundation

extension AppConfig {
    /// The keys allowed at the top level of the file, in documentation order.
    public static let topLevelKeys = ["symbols", "staleAfterSeconds", "highlightMilliseconds", "color", "theme", "colors", "keys", "mouse", "tls", "brokers", "trading", "paper", "bus", "alerts", "columns", "sparklineMinutes", "crossBroker"]

    /// Parses and validates a config file's text. `path` is used in messages only. Keys absent from
    /// the text keep their defaults; keys starting with `//` are comments.
    public static func load(contentsOf text: String, path: String) -> Result<AppConfig, ConfigError> {
        let document: JSONDocument
        switch JSONDocument.parse(text, path: path, repeatableKeyPrefix: ConfigReader.commentPrefix) {
        case .success(let parsed): document = parsed
        case .failure(let error): return .failure(.syntax(error))
        }
        do throws(ConfigError) {
            return .success(try AppConfig(from: document.root, reader: ConfigReader(path: path)))
        } catch {
            return .failure(error)
        }
    }

    /// Reads and parses the file at `path`. A missing file is `.fileNotFound`, which the caller may
    /// treat as "use the defaults" (see `load(using:)`).
    public static func load(from path: String) -> Result<AppConfig, ConfigError> {
        switch ConfigFileReader.text(ofFileAt: path) {
        case .success(let text): load(contentsOf: text, path: path)
        case .failure(let error): .failure(error)
        }
    }

    /// Loads the config file `paths` names. A missing file is fine when the path is the default one
    /// (the defaults apply) and an error when the user named it with `--config`.
    public static func load(using paths: AppPaths) -> Result<AppConfig, ConfigError> {
        let result = load(from: paths.configFile)
        if case .failure(.fileNotFound) = result, !paths.configFileIsExplicit {
            return .success(.default)
        }
        return result
    }

    init(from root: JSONValue, reader: ConfigReader) throws(ConfigError) {
        let object = try reader.object(root, at: "", validKeys: Self.topLevelKeys)
        self.init()
        if let value = object["symbols"] { symbols = try Self.symbols(value, at: object.path("symbols"), reader: reader) }
        if let value = object["staleAfterSeconds"] {
            staleAfterSeconds = try reader.integer(value, at: object.path("staleAfterSeconds"), in: Self.staleAfterSecondsRange)
        }
        if let value = object["highlightMilliseconds"] {
            highlightMilliseconds = try reader.integer(
                value, at: object.path("highlightMilliseconds"), in: Self.highlightMillisecondsRange
            )
        }
        if let value = object["color"] { color = try reader.bool(value, at: object.path("color")) }
        if let value = object["theme"] { theme = try Theme(from: value, at: object.path("theme"), reader: reader) }
        if let value = object["colors"] {
            let chosen = try Theme.colors(value, at: object.path("colors"), reader: reader)
            theme.colors.merge(chosen.roles) { $1 }
            theme.brokerColors = chosen.brokers
        }
        if let value = object["keys"] { keys = try Self.keyBindings(value, at: object.path("keys"), reader: reader) }
        if let value = object["mouse"] { mouse = try reader.bool(value, at: object.path("mouse")) }
        if let value = object["tls"] { tls = try TLS(from: value, at: object.path("tls"), reader: reader) }
        if let value = object["brokers"] { brokers = try Brokers(from: value, at: object.path("brokers"), reader: reader) }
        if let value = object["trading"] { trading = try Trading(from: value, at: object.path("trading"), reader: reader) }
        if let value = object["paper"] { paper = try Paper(from: value, at: object.path("paper"), reader: reader) }
        if let value = object["bus"], !value.isNull { bus = try Bus(from: value, at: object.path("bus"), reader: reader) }
        if let value = object["alerts"] { alerts = try Alerts(from: value, at: object.path("alerts"), reader: reader) }
        if let value = object["columns"] { columns = try Self.columns(value, at: object.path("columns"), reader: reader) }
        if let value = object["sparklineMinutes"] {
            sparklineMinutes = try reader.integer(value, at: object.path("sparklineMinutes"), in: Self.sparklineMinutesRange)
        }
        if let value = object["crossBroker"] { crossBroker = try CrossBroker(from: value, at: object.path("crossBroker"), reader: reader) }
    }

    /// Symbols are normalized (upper-cased) and must be unique, so the watchlist seed has no duplicate rows.
    private static func symbols(_ value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) -> [String] {
        guard let elements = value.arrayValue else {
            throw reader.wrongType(value, at: keyPath, expected: "an array of symbols such as [\"AAPL\", \"MSFT\"]")
        }
        var symbols: [String] = []
        for (index, element) in elements.enumerated() {
            let elementPath = "\(keyPath)[\(index)]"
            let raw = try reader.string(element, at: elementPath)
            switch Symbol.normalize(raw) {
            case .success(let symbol):
                if let first = symbols.firstIndex(of: symbol) {
                    throw reader.invalid(element, at: elementPath, "repeats \(symbol) (already \(keyPath)[\(first)]); list each symbol once")
                }
                symbols.append(symbol)
            case .failure(let error):
                throw reader.invalid(element, at: elementPath, "is not a valid symbol: \(error)")
            }
        }
        return symbols
    }
}
