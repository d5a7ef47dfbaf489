import Interactors
import TerminalKit
import TerminalUI
import Testing
@testable import CommonBrokerApp

/// The config's `theme`, `colors`, `keys` and `mouse`: what they set, and each mistake as an error
/// that names the line, the key and what to do.
@Suite struct KeysAndColorsConfigTests {
    private func load(_ text: String) -> Result<AppConfig, ConfigError> {
        AppConfig.load(contentsOf: text, path: "config.json")
    }

    private func message(_ text: String) -> String {
        switch load(text) {
        case .success: "loaded"
        case .failure(let error): error.description
        }
    }

    @Test func aThemeByNameAndColorsByRole() throws {
        let config = try load("""
            {
              "theme": "light",
              "colors": {"up": "#00a000", "down": "red", "header": "blue", "warning": "130", "best": "brightGreen"},
              "mouse": false
            }
            """).get()
        #expect(config.theme.name == .light)
        #expect(config.theme.colors == [
            .up: .rgb(RGBColor(hex: 0x00A000)), .down: .basic(.red), .header: .basic(.blue), .warning: .indexed(130), .best: .indexed(10),
        ])
        #expect(config.mouse == false)
        #expect(AppConfig.default.mouse == true)
        #expect(AppConfig.default.theme == AppConfig.Theme(name: .dark, colors: [:]))
        #expect(try load(#"{"theme": "high-contrast"}"#).get().theme.name == .highContrast)
    }

    @Test func aBrokersGlyphColorIsSetByItsID() throws {
        let config = try load(##"{"colors": {"broker.polygon": "#ff8800", "broker.demo-alpha": "blue", "up": "green"}}"##).get()
        #expect(config.theme.brokerColors == ["polygon": .rgb(RGBColor(hex: 0xFF8800)), "demo-alpha": .basic(.blue)])
        #expect(config.theme.colors == [.up: .basic(.green)])
        #expect(message(#"{"colors": {"broker.polygon": "orange"}}"#)
            == #"config.json:1:31: "colors.broker.polygon" must be \#(ColorSpec.accepted), found "orange""#)
        #expect(message(#"{"colors": {"broker.nyse": "red"}}"#).hasPrefix(#"config.json:1:13: unknown key "colors.broker.nyse""#))
    }

    @Test func colorsWinOverTheOlderThemeObject() throws {
        let config = try load(#"{"theme": {"up": "blue"}, "colors": {"up": "cyan"}}"#).get()
        #expect(config.theme.colors == [.up: .basic(.cyan)])
        #expect(config.theme.name == .dark)
    }

    @Test func anUnknownThemeRoleOrColorIsNamed() {
        #expect(message(#"{"theme": "solarized"}"#)
            == #"config.json:1:11: "theme" must be one of "dark", "light", "high-contrast", "mono", found "solarized""#)
        #expect(message("{\n  \"colors\": {\n    \"upp\": \"green\"\n  }\n}")
            == "config.json:3:5: unknown key \"colors.upp\"; did you mean \"up\"? expected one of: "
            + (ColorRole.allCases.map(\.rawValue) + AppConfig.Theme.colorableBrokerIDs.map { "broker." + $0 }).joined(separator: ", "))
        #expect(message("{\n  \"colors\": {\"down\": \"#ff00\"}\n}")
            == "config.json:2:22: \"colors.down\" must be \(ColorSpec.accepted), found \"#ff00\"")
        #expect(message(#"{"colors": {"up": 2}}"#) == #"config.json:1:19: "colors.up" must be a string, found number"#)
        #expect(message(#"{"mouse": "no"}"#) == #"config.json:1:11: "mouse" must be true or false, found string"#)
    }

    @Test func keysReplaceAnActionsKeys() throws {
        let config = try load(#"{"keys": {"quit": "x", "add": ["n", "Ctrl-A"], "moveDown": ["j", "Down", "j"], "sort": []}}"#).get()
        #expect(config.keys.action(for: .character("x")) == .quit)
        #expect(config.keys.action(for: .character("q")) == nil)
        #expect(config.keys.keys(named: "add") == [.character("n"), .control("a")])
        #expect(config.keys.keys(named: "moveDown") == [.character("j"), .down], "a repeated key counts once")
        #expect(config.keys.keys(named: "sort").isEmpty)
        #expect(AppConfig.default.keys == KeyBindings.standard)
        // Swapping two actions' keys is no clash: each has only the other's key now.
        let swapped = try load(#"{"keys": {"add": "d", "remove": "a"}}"#).get()
        #expect(swapped.keys.action(for: .character("d")) == .beginAdd)
        #expect(swapped.keys.action(for: .character("a")) == .removeSelected)
    }

    @Test func anUnknownActionIsNamedWithItsLine() {
        #expect(message("{\n  \"keys\": {\n    \"quitt\": \"x\"\n  }\n}")
            == "config.json:3:5: unknown key \"keys.quitt\"; did you mean \"quit\"? expected one of: "
            + KeyBindings.standard.names.joined(separator: ", "))
    }

    @Test func anUnknownKeyNameIsNamedWithItsLineAndWhatToWrite() {
        #expect(message("{\n  \"keys\": {\n    \"quit\": \"F13\"\n  }\n}")
            == "config.json:3:13: \"keys.quit\" is not a key name: \"F13\"; write \(KeyName.accepted)")
        #expect(message("{\"keys\": {\"add\": [\"n\", \"Plus\"]}}")
            == "config.json:1:24: \"keys.add[1]\" is not a key name: \"Plus\"; write \(KeyName.accepted)")
        #expect(message(#"{"keys": {"quit": "Ctrl-C"}}"#).hasPrefix(#"config.json:1:19: "keys.quit" is "Ctrl-C", which the terminal or the app keeps for itself"#))
        #expect(message(#"{"keys": {"quit": 1}}"#)
            == #"config.json:1:19: "keys.quit" must be a key such as "x" or "Down", or a list of keys, found number"#)
    }

    @Test func twoActionsOnOneKeyAreAnErrorAtTheLineWithWhatToDo() {
        // Against a default key.
        #expect(message("{\n  \"keys\": {\n    \"add\": \"d\"\n  }\n}")
            == "config.json:3:12: \"keys.add\" puts d on \"add\", but \"remove\" has it too (by default); "
            + "give one of them another key, or unbind \"remove\" with \"remove\": []")
        // Between two remapped actions: the second is reported, naming the first's line.
        #expect(message("{\n  \"keys\": {\n    \"quit\": \"x\",\n    \"help\": [\"h\", \"x\"]\n  }\n}")
            == "config.json:3:13: \"keys.quit\" puts x on \"quit\", but \"help\" has it too (on line 4); "
            + "give one of them another key, or unbind \"help\" with \"help\": []")
        // Named keys clash the same way.
        #expect(message(#"{"keys": {"sort": "Enter"}}"#).contains(#"puts Enter on "sort", but "detail" has it too (by default)"#))
        // Unbinding the other action resolves it.
        #expect(message(#"{"keys": {"add": "d", "remove": []}}"#) == "loaded")
    }
}
