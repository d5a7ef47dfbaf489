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
        for key in [KeyPress.character("x"), .character("Z"), .enter, .tab, .left, .right, .resize, .control("a")] {
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

    @Test func helpModeClosesOnQuestionMarkEscapeAndQ() {
        for key in [KeyPress.character("?"), .escape, .character("q")] {
            #expect(KeyMap.action(for: key, mode: .help) == .toggleHelp)
        }
        #expect(KeyMap.action(for: .control("c"), mode: .help) == .quit)
        #expect(KeyMap.action(for: .character("d"), mode: .help) == nil)
        #expect(KeyMap.action(for: .down, mode: .help) == nil)
    }
}
