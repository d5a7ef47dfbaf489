import Domain
import TextSafety
import Foundation

/// Reads typed values out of a parsed config file. Every mismatch becomes a `ConfigError` that names
/// the file, the value's line and column and its dotted key path.
struct ConfigReader {
    /// Members whose key starts with this are comments: skipped everywhere, and allowed to repeat.
    static let commentPrefix = "//"

    let path: String

    /// The object at `keyPath`, after checking that it holds no key outside `validKeys`.
    func object(_ value: JSONValue, at keyPath: String, validKeys: [String]) throws(ConfigError) -> ConfigObject {
        guard let members = value.objectMembers else {
            throw wrongType(value, at: keyPath, expected: "an object")
        }
        var byKey: [String: JSONMember] = [:]
        for member in members where !member.key.hasPrefix(Self.commentPrefix) {
            guard validKeys.contains(member.key) else {
                throw .unknownKey(
                    path: path, position: member.keyPosition,
                    keyPath: ConfigObject.join(keyPath, member.key), validKeys: validKeys
                )
            }
            byKey[member.key] = member
        }
        return ConfigObject(keyPath: keyPath, members: byKey)
    }

    func bool(_ value: JSONValue, at keyPath: String) throws(ConfigError) -> Bool {
        guard let bool = value.boolValue else { throw wrongType(value, at: keyPath, expected: "true or false") }
        return bool
    }

    func integer(_ value: JSONValue, at keyPath: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        guard let number = value.numberValue else { throw wrongType(value, at: keyPath, expected: "a number") }
        guard let int = number.intValue else {
            throw invalid(value, at: keyPath, "must be a whole number, found \(number.literal)")
        }
        guard range.contains(int) else {
            throw invalid(
                value, at: keyPath, "must be between \(range.lowerBound) and \(range.upperBound), found \(number.literal)"
            )
        }
        return int
    }

    func string(_ value: JSONValue, at keyPath: String) throws(ConfigError) -> String {
        guard let string = value.stringValue else { throw wrongType(value, at: keyPath, expected: "a string") }
        return string
    }

    /// One of a fixed set of words, such as a color name or an environment.
    func choice(_ value: JSONValue, at keyPath: String, allowed: [String]) throws(ConfigError) -> String {
        let word = try string(value, at: keyPath)
        guard allowed.contains(word) else {
            let quoted = allowed.map { "\"\($0)\"" }
            let expected = quoted.count == 1 ? quoted[0] : "one of " + quoted.joined(separator: ", ")
            let suggestion = SpellingSuggestion.closest(to: word, among: allowed).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw invalid(value, at: keyPath, "must be \(expected), found \"\(word)\"\(suggestion)")
        }
        return word
    }

    /// A case of a string-backed enum, such as a `BrandColor`, matched by its raw value.
    func choice<Choice: RawRepresentable & CaseIterable>(
        _ value: JSONValue, at keyPath: String, of type: Choice.Type
    ) throws(ConfigError) -> Choice where Choice.RawValue == String {
        try choice(value, at: keyPath, among: Array(Choice.allCases))
    }

    /// One of `cases`, matched by raw value; lets a caller allow only some cases of an enum.
    func choice<Choice: RawRepresentable>(
        _ value: JSONValue, at keyPath: String, among cases: [Choice]
    ) throws(ConfigError) -> Choice where Choice.RawValue == String {
        let word = try choice(value, at: keyPath, allowed: cases.map(\.rawValue))
        guard let match = cases.first(where: { $0.rawValue == word }) else {
            throw invalid(value, at: keyPath, "has no matching case for \"\(word)\"")
        }
        return match
    }

    /// An absolute http or https URL.
    func webURL(_ value: JSONValue, at keyPath: String) throws(ConfigError) -> URL {
        let text = try string(value, at: keyPath)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else {
            throw invalid(value, at: keyPath, "must be an http or https URL such as \"https://api.example.com\", found \"\(text)\"")
        }
        return url
    }

    func webSocketURL(_ value: JSONValue, at keyPath: String) throws(ConfigError) -> URL {
        let text = try string(value, at: keyPath)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
              let host = url.host, !host.isEmpty
        else {
            throw invalid(value, at: keyPath, "must be a ws or wss URL such as \"wss://stream.example.com/v1\", found \"\(text)\"")
        }
        return url
    }

    func wrongType(_ value: JSONValue, at keyPath: String, expected: String) -> ConfigError {
        .wrongType(path: path, position: value.position, keyPath: keyPath, expected: expected, found: value.typeName)
    }

    func invalid(_ value: JSONValue, at keyPath: String, _ problem: String) -> ConfigError {
        .invalidValue(path: path, position: value.position, keyPath: keyPath, problem: problem)
    }
}

extension ConfigReader {
    /// An exact amount of money or shares, from a JSON number or a numeric string ("100000", "0.005"),
    /// read from its text so that no binary rounding creeps in.
    func decimal(_ value: JSONValue, at keyPath: String, in range: ClosedRange<ExactDecimal>) throws(ConfigError) -> ExactDecimal {
        let text: String
        if let number = value.numberValue {
            text = number.literal
        } else if let string = value.stringValue {
            text = string
        } else {
            throw wrongType(value, at: keyPath, expected: "a number such as 100000 or \"0.005\"")
        }
        guard let amount = ExactDecimal(parsing: text) else {
            throw invalid(value, at: keyPath, "must be a decimal number such as 100000 or 0.005, found \(VisibleText.escaped(text))")
        }
        guard range.contains(amount) else {
            throw invalid(value, at: keyPath, "must be between \(range.lowerBound) and \(range.upperBound), found \(amount)")
        }
        return amount
    }
}
