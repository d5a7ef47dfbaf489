import Domain
import Interactors
import TerminalKit
import Testing

/// The table's keys as data: the defaults are today's keys, a remapping replaces an action's keys,
/// and the help and message-log overlays close with whatever key opens them.
@Suite struct KeyBindingsTests {
    @Test func theStandardKeysAreTheKeyMaps() {
        var keys: [KeyPress] = [.up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .enter, .escape, .backspace, .delete, .tab, .backTab]
        keys += (32...126).map { .character(Character(Unicode.Scalar(UInt8($0)))) }
        keys += "abcdefghijklmnopqrstuvwxyz".map { .control($0) }
        let bound = keys.filter { KeyBindings.standard.action(for: $0) != nil }
        #expect(bound.count == 44)
        #expect(KeyBindings.standard.action(for: .character("/")) == .beginFilter)
        #expect(KeyBindings.standard.action(for: .character("T")) == .cycleTheme)
        #expect(KeyBindings.standard.action(for: .character("5")) == .showList(4))
        // Every action has a unique name.
        #expect(Set(KeyBindings.standard.names).count == KeyBindings.standard.names.count)
    }

    @Test func remappingReplacesAnActionsKeys() {
        let keys = KeyBindings.standard.remapping([("quit", [.character("x")]), ("add", [.character("n"), .control("a")]), ("sort", [])])
        #expect(keys.action(for: .character("x")) == .quit)
        #expect(keys.action(for: .character("q")) == nil, "q no longer quits")
        #expect(keys.action(for: .character("n")) == .beginAdd)
        #expect(keys.action(for: .control("a")) == .beginAdd)
        #expect(keys.action(for: .character("a")) == nil)
        #expect(keys.action(for: .character("s")) == nil, "[] unbinds")
        #expect(keys.keys(named: "sort").isEmpty)
        #expect(keys.action(for: .character("j")) == .moveDown, "the rest keep their keys")
        #expect(keys.name(boundTo: .character("j"), other: "quit") == "moveDown")
        #expect(keys.name(boundTo: .character("x"), other: "quit") == nil)
    }

    @Test func keyNamesReadAndWriteBack() {
        let cases: [(String, KeyPress, String)] = [
            ("q", .character("q"), "q"), ("/", .character("/"), "/"), ("G", .character("G"), "G"),
            ("Down", .down, "↓"), ("up", .up, "↑"), ("PgDn", .pageDown, "PgDn"), ("PageUp", .pageUp, "PgUp"),
            ("Enter", .enter, "Enter"), ("esc", .escape, "Esc"), ("Tab", .tab, "Tab"), ("Shift-Tab", .backTab, "Shift-Tab"),
            ("Delete", .delete, "Delete"), ("Space", .character(" "), "Space"), ("Ctrl-X", .control("x"), "Ctrl-X"),
            ("c-a", .control("a"), "Ctrl-A"),
        ]
        for (text, key, shown) in cases {
            #expect(KeyName.parse(text) == .success(key), "\(text)")
            #expect(KeyName.display(key) == shown)
        }
        for text in ["", "Up Arrow", "F1", "qq", " ", "\u{1B}", "Ctrl-", "Ctrl-1"] {
            #expect(KeyName.parse(text) == .failure(.unknown(text)), "\(text)")
        }
        for text in ["Ctrl-C", "ctrl-z", "Ctrl-M", "Ctrl-S"] {
            #expect(KeyName.parse(text) == .failure(.unavailable(text)), "\(text)")
        }
    }

    @Test func remappedKeysDriveTheAppAndTheOldOnesDoNot() {
        let keys = KeyBindings.standard.remapping([
            ("quit", [.character("x")]), ("add", [.character("n")]), ("help", [.character("h")]), ("undo", [.character("U")]), ("lists", [.character("w")]),
        ])
        var driver = AppStateDriver(symbols: ["AAPL"], keys: keys)
        driver.send(.started)
        #expect(driver.press(.character("q")).isEmpty)
        driver.press(.character("a"))
        #expect(driver.state.front == .watchlist)
        driver.press(.character("n"))
        #expect(driver.state.front == .adding(TextPrompt()))
        driver.press(.escape)
        // Help opens and closes on its own key.
        driver.press(.character("h"))
        #expect(driver.state.front == .help)
        driver.press(.character("h"))
        #expect(driver.state.front == .watchlist)
        #expect(driver.state.viewState().keys == keys)
        // Messages name the keys as mapped.
        driver.press(.character("d"))
        #expect(driver.state.message?.text == "Removed AAPL · U to undo")
        driver.press(.character("n"))
        driver.type("MSFT")
        driver.press(.enter)
        driver.press(.character("9"))
        #expect(driver.state.message?.text == "There is no list 9; w makes one")
        #expect(driver.press(.character("x")) == [.quit])
        // Ctrl-C quits whatever the keys.
        #expect(driver.press(.control("c")) == [.quit])
    }
}
