import Interactors
import TerminalKit
import TextSafety

extension AppConfig {
    /// `keys`: the watchlist's keys, by action (`KeyBindings.standard` names them). A key is a string
    /// or a list of them; the keys written replace the action's own, and `[]` unbinds it.
    ///
    ///     "keys": {"quit": "x", "add": "n", "moveDown": ["j", "Down"]}
    ///
    /// Each problem is an error at its line: an action that does not exist, a key that is not one,
    /// and a key on two actions (the one named here and another, remapped or by default).
    static func keyBindings(_ value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) -> KeyBindings {
        let standard = KeyBindings.standard
        let object = try reader.object(value, at: keyPath, validKeys: standard.names)
        // In the file's order, so the first clash in the file is the one reported.
        let members = object.members.values.sorted { $0.keyPosition < $1.keyPosition }
        var changes: [(name: String, keys: [KeyPress])] = []
        var positions: [String: [KeyPress: SourcePosition]] = [:]
        for member in members {
            let path = object.path(member.key)
            let elements: [(JSONValue, String)]
            if let array = member.value.arrayValue {
                elements = array.enumerated().map { ($1, "\(path)[\($0)]") }
            } else {
                elements = [(member.value, path)]
            }
            var keys: [KeyPress] = []
            for (element, elementPath) in elements {
                guard let text = element.stringValue else {
                    throw reader.wrongType(element, at: elementPath, expected: "a key such as \"x\" or \"Down\", or a list of keys")
                }
                switch KeyName.parse(text) {
                case .success(let key):
                    guard !keys.contains(key) else { continue }
                    keys.append(key)
                    positions[member.key, default: [:]][key] = element.position
                case .failure(.unknown):
                    throw reader.invalid(
                        element, at: elementPath, "is not a key name: \"\(VisibleText.escaped(text))\"; write \(KeyName.accepted)")
                case .failure(.unavailable):
                    throw reader.invalid(
                        element, at: elementPath,
                        "is \"\(VisibleText.escaped(text))\", which the terminal or the app keeps for itself "
                            + "(Ctrl-C quits, Ctrl-Z suspends, Ctrl-S/Ctrl-Q are flow control, Ctrl-H/I/J/M are Backspace, Tab and Enter); choose another key")
                }
            }
            changes.append((member.key, keys))
        }
        let bindings = standard.remapping(changes)
        for change in changes {
            for key in change.keys {
                guard let other = bindings.name(boundTo: key, other: change.name),
                      let position = positions[change.name]?[key] else { continue }
                let holder = positions[other]?[key].map { "on line \($0.line)" } ?? "by default"
                throw .invalidValue(
                    path: reader.path, position: position, keyPath: object.path(change.name),
                    problem: "puts \(KeyName.display(key)) on \"\(change.name)\", but \"\(other)\" has it too (\(holder)); "
                        + "give one of them another key, or unbind \"\(other)\" with \"\(other)\": []")
            }
        }
        return bindings
    }
}
