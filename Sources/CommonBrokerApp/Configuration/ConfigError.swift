/// Why a configuration file could not be used. Every message says what is wrong, where
/// (`path:line:column`) and, where it is not obvious, what to do about it.
public enum ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not exist. Whether that matters is the caller's decision: a missing default
    /// file means "use the defaults", a missing `--config` file is a mistake.
    case fileNotFound(path: String)
    case unreadable(path: String, reason: String)
    case syntax(JSONSyntaxError)
    case unknownKey(path: String, position: SourcePosition, keyPath: String, validKeys: [String])
    /// `expected` reads after "must be": "a number", "true or false"; `found` is a JSON type name.
    case wrongType(path: String, position: SourcePosition, keyPath: String, expected: String, found: String)
    /// `problem` reads after the quoted key path: "must be between 1 and 86400, found 0".
    case invalidValue(path: String, position: SourcePosition, keyPath: String, problem: String)

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "config file not found: \(path); check the path, or start from config.example.json "
                + "(run without --config to use the built-in defaults)"
        case .unreadable(let path, let reason):
            return "cannot read config file \(path): \(reason)"
        case .syntax(let error):
            return error.description
        case .unknownKey(let path, let position, let keyPath, let validKeys):
            let name = keyPath.split(separator: ".").last.map(String.init) ?? keyPath
            let suggestion = SpellingSuggestion.closest(to: name, among: validKeys)
                .map { "did you mean \"\($0)\"? " } ?? ""
            return "\(path):\(position): unknown key \"\(keyPath)\"; \(suggestion)expected one of: "
                + validKeys.joined(separator: ", ")
        case .wrongType(let path, let position, let keyPath, let expected, let found):
            return "\(path):\(position): \(Self.subject(keyPath)) must be \(expected), found \(found)"
        case .invalidValue(let path, let position, let keyPath, let problem):
            return "\(path):\(position): \(Self.subject(keyPath)) \(problem)"
        }
    }

    private static func subject(_ keyPath: String) -> String {
        keyPath.isEmpty ? "the top level" : "\"\(keyPath)\""
    }

    /// Where in the file the problem is, when it is about the file's content.
    public var position: SourcePosition? {
        switch self {
        case .fileNotFound, .unreadable: nil
        case .syntax(let error): error.position
        case .unknownKey(_, let position, _, _), .wrongType(_, let position, _, _, _),
             .invalidValue(_, let position, _, _):
            position
        }
    }

    /// The dotted path of the offending key (`brokers.tradier.baseURL`, `symbols[2]`), if any.
    public var keyPath: String? {
        switch self {
        case .fileNotFound, .unreadable, .syntax: nil
        case .unknownKey(_, _, let keyPath, _), .wrongType(_, _, let keyPath, _, _),
             .invalidValue(_, _, let keyPath, _):
            keyPath
        }
    }
}
