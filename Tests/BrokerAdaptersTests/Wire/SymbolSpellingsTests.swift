import Domain
import Testing
@testable import BrokerAdapters

@Suite struct SymbolSpellingsTests {
    @Test func spellingsGroupUnderTheirCanonicalSymbolInFirstSeenOrder() {
        let spellings = SymbolSpellings(["msft", "AAPL", "aapl", "MSFT", "aapl", "Aapl"])
        #expect(spellings.canonicalOrder == ["MSFT", "AAPL"])
        #expect(spellings.spellings(of: "AAPL") == ["AAPL", "aapl", "Aapl"])
        #expect(spellings.spellings(of: "MSFT") == ["msft", "MSFT"])
        #expect(spellings.spellings(of: "TSLA") == [])
        #expect(spellings.rejected.isEmpty)
    }

    @Test func inputThatIsNoSymbolIsRejectedOnceAndEscaped() {
        let spellings = SymbolSpellings(["", "A\u{1B}[2J", "", "IBM"])
        #expect(spellings.canonicalOrder == ["IBM"])
        #expect(spellings.rejected == [
            "": .failure(.unknownSymbol("")),
            "A\u{1B}[2J": .failure(.unknownSymbol("A\\u{1b}[2J")),
        ])
    }
}
