import Testing

@testable import MarketDataHub

@Suite struct GroupRosterTests {
    final class Member: Sendable {}

    @Test func aSymbolIsNewOnlyToItsFirstMember() {
        var roster = GroupRoster<Member>()
        let (first, second) = (Member(), Member())
        #expect(roster.add(first, to: ["AAPL", "MSFT"]) == ["AAPL", "MSFT"])
        #expect(roster.add(second, to: ["AAPL", "TSLA"]) == ["TSLA"])
        #expect(roster.symbols == ["AAPL", "MSFT", "TSLA"])
        #expect(roster.followers(of: "AAPL").map(ObjectIdentifier.init) == [first, second].map(ObjectIdentifier.init))
    }

    @Test func addingAMemberTwiceToASymbolCountsItOnce() {
        var roster = GroupRoster<Member>()
        let member = Member()
        _ = roster.add(member, to: ["AAPL"])
        #expect(roster.add(member, to: ["AAPL"]) == [])
        #expect(roster.followers(of: "AAPL").count == 1)
        // One removal is enough to release it.
        #expect(roster.remove(member, from: ["AAPL"]) == ["AAPL"])
    }

    @Test func aSymbolIsGoneOnlyWithItsLastMember() {
        var roster = GroupRoster<Member>()
        let (first, second) = (Member(), Member())
        _ = roster.add(first, to: ["AAPL", "MSFT"])
        _ = roster.add(second, to: ["AAPL"])
        #expect(roster.remove(first, from: ["AAPL", "MSFT"]) == ["MSFT"])
        #expect(roster.followers(of: "AAPL").map(ObjectIdentifier.init) == [ObjectIdentifier(second)])
        // Symbols the member does not follow are ignored.
        #expect(roster.remove(first, from: ["AAPL", "NVDA"]) == [])
        #expect(roster.remove(second, from: ["AAPL"]) == ["AAPL"])
        #expect(roster.symbols.isEmpty)
    }

    @Test func removingEveryoneReturnsEachMemberOnce() {
        var roster = GroupRoster<Member>()
        let (first, second) = (Member(), Member())
        _ = roster.add(first, to: ["AAPL", "MSFT"])
        _ = roster.add(second, to: ["MSFT"])
        let everyone = roster.removeAll()
        #expect(Set(everyone.map(ObjectIdentifier.init)) == Set([first, second].map(ObjectIdentifier.init)))
        #expect(everyone.count == 2)
        #expect(roster.symbols.isEmpty)
    }
}
