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
        (.control("c"), .quit),
        (.character("m"), .toggleMessageLog),
        (.escape, .dismiss),
    ])
    func normalMode(key: KeyPress, action: WatchlistAction) {
        #expect(KeyMap.action(for: key, mode: .normal) == action)
    }

    @Test func normalModeIgnoresOtherKeys() {
        for key in [KeyPress.character("x"), .character("Z"), .character("0"), .left, .right, .resize, .control("a")] {
            #expect(KeyMap.action(for: key, mode: .normal) == nil)
        }
    }

    @Test func addingModeTypesEveryPrintableCharacter() {
        let adding = InputMode.adding(text: "AA", error: nil)
        for character in ["a", "q", "?", "d", "Z", "$", " ", ",", "."] as [Character] {
            #expect(KeyMap.action(for: .character(character), mode: adding) == .inputCharacter(character))
        }
        #expect(KeyMap.action(for: .backspace, mode: adding) == .inputBackspace)
        #expect(KeyMap.action(for: .character("\u{7F}"), mode: adding) == .inputBackspace)
        #expect(KeyMap.action(for: .enter, mode: adding) == .submitInput)
        #expect(KeyMap.action(for: .escape, mode: adding) == .cancelInput)
        #expect(KeyMap.action(for: .control("c"), mode: adding) == .quit)
        #expect(KeyMap.action(for: .character("\u{1B}"), mode: adding) == nil)
        #expect(KeyMap.action(for: .up, mode: adding) == nil)
    }

    @Test func detailKeys() {
        #expect(KeyMap.action(for: .enter, mode: .normal) == .openDetail)
        for key in [KeyPress.escape, .enter, .character("q")] {
            #expect(KeyMap.action(for: key, mode: .detail(symbol: "AAPL")) == .closeDetail)
        }
        #expect(KeyMap.action(for: .character("d"), mode: .detail(symbol: "AAPL")) == nil)
        #expect(KeyMap.action(for: .control("c"), mode: .detail(symbol: "AAPL")) == .quit)
    }

    @Test func listKeys() {
        #expect(KeyMap.action(for: .tab, mode: .normal) == .nextList)
        #expect(KeyMap.action(for: .backTab, mode: .normal) == .previousList)
        #expect(KeyMap.action(for: .character("1"), mode: .normal) == .showList(0))
        #expect(KeyMap.action(for: .character("9"), mode: .normal) == .showList(8))
        #expect(KeyMap.action(for: .character("W"), mode: .normal) == .openListMenu)
        let menu = InputMode.listMenu(selected: 0)
        #expect(KeyMap.action(for: .character("j"), mode: menu) == .menuMove(by: 1))
        #expect(KeyMap.action(for: .up, mode: menu) == .menuMove(by: -1))
        #expect(KeyMap.action(for: .enter, mode: menu) == .menuShowSelected)
        #expect(KeyMap.action(for: .character("n"), mode: menu) == .menuNewList)
        #expect(KeyMap.action(for: .character("r"), mode: menu) == .menuRenameList)
        #expect(KeyMap.action(for: .character("d"), mode: menu) == .menuDeleteList)
        #expect(KeyMap.action(for: .character("J"), mode: menu) == .menuReorder(by: 1))
        #expect(KeyMap.action(for: .character("K"), mode: menu) == .menuReorder(by: -1))
        #expect(KeyMap.action(for: .character("u"), mode: menu) == .undoRemove)
        #expect(KeyMap.action(for: .escape, mode: menu) == .closeListMenu)
        let naming = InputMode.namingList(.create, text: "", error: nil)
        #expect(KeyMap.action(for: .character("T"), mode: naming) == .inputCharacter("T"))
        #expect(KeyMap.action(for: .escape, mode: naming) == .cancelInput)
        let confirming = InputMode.confirmingDelete(list: "Tech")
        #expect(KeyMap.action(for: .character("y"), mode: confirming) == .confirmDelete)
        #expect(KeyMap.action(for: .character("n"), mode: confirming) == .cancelDelete)
        #expect(KeyMap.action(for: .escape, mode: confirming) == .cancelDelete)
        #expect(KeyMap.action(for: .character("d"), mode: confirming) == nil)
    }

    @Test func helpModeClosesOnQuestionMarkEscapeAndQ() {
        for key in [KeyPress.character("?"), .escape, .character("q")] {
            #expect(KeyMap.action(for: key, mode: .help) == .toggleHelp)
        }
        #expect(KeyMap.action(for: .control("c"), mode: .help) == .quit)
        #expect(KeyMap.action(for: .character("d"), mode: .help) == nil)
        #expect(KeyMap.action(for: .down, mode: .help) == nil)
    }
}
