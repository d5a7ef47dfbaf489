import TerminalKit
import Testing
@testable import TerminalCurses

@Suite struct TerminalCapabilitiesTests {
    @Test func dumbCannotMoveTheCursorAndIsRefused() throws {
        let dumb = try #require(TerminalCapabilities.lookUp(term: "dumb"), "terminfo has no entry for dumb")
        #expect(!dumb.canAddressCursor)
        #expect(!dumb.canDrawFullScreen)
        #expect(TerminalCapabilities.refusal(term: "dumb", capabilities: dumb) == .cannotAddressCursor(term: "dumb"))
    }

    @Test func xtermCanDrawTheWatchlist() throws {
        let xterm = try #require(TerminalCapabilities.lookUp(term: "xterm-256color"), "terminfo has no entry for xterm-256color")
        #expect(xterm.canDrawFullScreen)
        #expect(TerminalCapabilities.refusal(term: "xterm-256color", capabilities: xterm) == nil)
    }

    @Test func unknownOrUnsetTermIsUnsupported() {
        #expect(TerminalCapabilities.lookUp(term: "no-such-terminal-type") == nil)
        #expect(TerminalCapabilities.refusal(term: "no-such-terminal-type", capabilities: nil) == .unsupportedTerminal(term: "no-such-terminal-type"))
        #expect(TerminalCapabilities.refusal(term: nil, capabilities: nil) == .unsupportedTerminal(term: nil))
    }

    @Test func hardcopyAndGenericTypesAreRefusedEvenWithCup() {
        let hardcopy = TerminalCapabilities(canAddressCursor: true, isHardcopy: true)
        let generic = TerminalCapabilities(canAddressCursor: true, isGeneric: true)
        #expect(TerminalCapabilities.refusal(term: "tty33", capabilities: hardcopy) == .cannotAddressCursor(term: "tty33"))
        #expect(TerminalCapabilities.refusal(term: "network", capabilities: generic) == .cannotAddressCursor(term: "network"))
    }

    @Test func theMessageSaysWhatToDo() {
        #expect(TerminalError.cannotAddressCursor(term: "dumb").description
            == "TERM=dumb cannot move the cursor; run it in a full terminal (e.g. TERM=xterm-256color) or use 'commonbroker print'")
    }

    /// TERM is text from outside: it reaches the message escaped, whatever it holds.
    @Test func termIsEscapedInMessages() {
        let hostile = "dumb\u{1B}]0;owned\u{07}\n\u{202E}x\\"
        for error in [TerminalError.cannotAddressCursor(term: hostile), .unsupportedTerminal(term: hostile), .notATerminal(term: hostile)] {
            #expect(error.description.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }, "\(error.description.debugDescription)")
            #expect(error.description.contains(#"TERM=dumb\u{1B}]0;owned\u{7}\u{A}\u{202E}x\u{5C}"#))
        }
    }
}
