import Interactors
import Testing
import TerminalKit

@Suite struct KeyMapTests {
    @Test(arguments: [
        (KeyPress.character("a"), WatchlistAction.beginAdd),
        (.character("+"), .beginAdd),
        (.character("d"), .removeSelected),
        (.delete, .removeSelected),
        (.character("u"), .undoRemove),
        (.character("j"), .moveDown),
        (.down, .moveDown),
        (.character("k"), .moveUp),
        (.up, .moveUp),
        (.pageUp, .pageUp),
        (.pageDown, .pageDown),
        (.character("g"), .moveToTop),
        (.home, .moveToTop),
        (.character("G"), .moveToBottom),
        (.end, .moveToBottom),
        (.character("s"), .cycleSort),
        (.character("A"), .toggleAccounts),
        (.character("?"), .toggleHelp),
        (.character("q"), .quit),
        (.character("m"), .toggleMessageLog),
        (.escape, .dismiss),
        (.enter, .openDetail),
    ])
    func watchlistKeys(key: KeyPress, action: WatchlistAction) {
        #expect(KeyMap.watchlistAction(for: key) == action)
    }

    @Test func watchlistIgnoresOtherKeys() {
        for key in [KeyPress.character("x"), .character("Z"), .character("0"), .left, .right, .resize, .control("a")] {
            #expect(KeyMap.watchlistAction(for: key) == nil)
        }
    }

    @Test func promptTypesEveryPrintableCharacter() {
        for character in ["a", "q", "?", "d", "Z", "$", " ", ",", "."] as [Character] {
            #expect(TextPrompt.action(for: .character(character)) == .type(character))
        }
        #expect(TextPrompt.action(for: .backspace) == .backspace)
        #expect(TextPrompt.action(for: .character("\u{7F}")) == .backspace)
        #expect(TextPrompt.action(for: .enter) == .submit)
        #expect(TextPrompt.action(for: .escape) == .cancel)
        #expect(TextPrompt.action(for: .character("\u{1B}")) == nil)
        #expect(TextPrompt.action(for: .up) == nil)
    }

    @Test func promptEditing() {
        var prompt = TextPrompt(limit: 3)
        for character in "ABCD" { prompt.edit(.type(character)) }
        #expect(prompt.text == "ABC")
        prompt = prompt.refused("bad")
        #expect(prompt.error == "bad")
        prompt.edit(.backspace)
        #expect(prompt.text == "AB")
        #expect(prompt.error == nil)
        var empty = TextPrompt()
        empty.edit(.backspace)
        #expect(empty.text == "")
    }

    @Test func detailKeys() {
        let detail = DetailScreen(symbol: "AAPL")
        for key in [KeyPress.escape, .enter, .character("q")] {
            #expect(detail.action(for: key) == .close)
        }
        #expect(detail.action(for: .character("d")) == nil)
    }

    @Test func listKeys() {
        #expect(KeyMap.watchlistAction(for: .tab) == .nextList)
        #expect(KeyMap.watchlistAction(for: .backTab) == .previousList)
        #expect(KeyMap.watchlistAction(for: .character("1")) == .showList(0))
        #expect(KeyMap.watchlistAction(for: .character("9")) == .showList(8))
        #expect(KeyMap.watchlistAction(for: .character("W")) == .openListMenu)
        let menu = ListMenuScreen(selected: 0)
        #expect(menu.action(for: .character("j")) == .move(by: 1))
        #expect(menu.action(for: .up) == .move(by: -1))
        #expect(menu.action(for: .enter) == .showSelected)
        #expect(menu.action(for: .character("n")) == .newList)
        #expect(menu.action(for: .character("r")) == .renameList)
        #expect(menu.action(for: .character("d")) == .deleteList)
        #expect(menu.action(for: .character("J")) == .reorder(by: 1))
        #expect(menu.action(for: .character("K")) == .reorder(by: -1))
        #expect(menu.action(for: .character("u")) == .undo)
        #expect(menu.action(for: .escape) == .close)
        let naming = ListMenuScreen(selected: 0, step: .naming(.create, TextPrompt()))
        #expect(naming.action(for: .character("T")) == .prompt(.type("T")))
        #expect(naming.action(for: .escape) == .prompt(.cancel))
        let confirming = ListMenuScreen(selected: 0, step: .confirmingDelete("Tech"))
        #expect(confirming.action(for: .character("y")) == .confirmDelete)
        #expect(confirming.action(for: .character("n")) == .cancelDelete)
        #expect(confirming.action(for: .escape) == .cancelDelete)
        #expect(confirming.action(for: .character("d")) == nil)
    }

    @Test func overlaysCloseOnTheirKeyEscapeEnterAndQ() {
        for key in [KeyPress.character("?"), .escape, .character("q"), .enter] {
            #expect(KeyMap.closesOverlay(key, openedWith: "?"))
        }
        #expect(!KeyMap.closesOverlay(.character("d"), openedWith: "?"))
        #expect(!KeyMap.closesOverlay(.down, openedWith: "?"))
        #expect(KeyMap.closesOverlay(.character("m"), openedWith: "m"))
    }
}
