import Testing

@testable import MarketDataHub

@Suite struct GroupRosterTests {
    final class Member: Sendable {}
    typealias Change = GroupRoster<Member>.Change

    @Test func aSymbolIsNewOnlyToItsFirstMember() {
        var roster = GroupRoster<Member>()
        let (first, second) = (Member(), Member())
        #expect(roster.setSymbols(["AAPL", "MSFT"], of: first) == Change(added: ["AAPL", "MSFT"], newToGroup: ["AAPL", "MSFT"]))
        let change = roster.setSymbols(["AAPL", "TSLA"], of: second)
        #expect(change == Change(added: ["AAPL", "TSLA"], newToGroup: ["TSLA"]))
        // AAPL's value is in the hub's cache already: it is owed to the second member alone.
        #expect(change.alreadyFollowed == ["AAPL"])
        #expect(roster.symbols == ["AAPL", "MSFT", "TSLA"])
        #expect(roster.followers(of: "AAPL").map(ObjectIdentifier.init) == [first, second].map(ObjectIdentifier.init))
        #expect(roster.symbols(of: second) == ["AAPL", "TSLA"])
    }

    @Test func settingTheSameSymbolsAgainChangesNothing() {
        var roster = GroupRoster<Member>()
        let member = Member()
        _ = roster.setSymbols(["AAPL"], of: member)
        let again = roster.setSymbols(["AAPL"], of: member)
        #expect(again == Change())
        #expect(!again.changesGroup)
        #expect(roster.followers(of: "AAPL").count == 1)
        // One removal is enough to release it.
        #expect(roster.setSymbols([], of: member).goneFromGroup == ["AAPL"])
    }

    @Test func aSymbolIsGoneOnlyWithItsLastMember() {
        var roster = GroupRoster<Member>()
        let (first, second) = (Member(), Member())
        _ = roster.setSymbols(["AAPL", "MSFT"], of: first)
        _ = roster.setSymbols(["AAPL"], of: second)
        #expect(roster.setSymbols([], of: first) == Change(goneFromGroup: ["MSFT"]))
        #expect(roster.followers(of: "AAPL").map(ObjectIdentifier.init) == [ObjectIdentifier(second)])
        #expect(roster.symbols(of: first).isEmpty)
        // A member that follows nothing leaves nothing behind.
        #expect(roster.setSymbols([], of: first) == Change())
        #expect(roster.setSymbols([], of: second) == Change(goneFromGroup: ["AAPL"]))
        #expect(roster.symbols.isEmpty)
    }

    @Test func movingAMemberAddsAndDropsInOneChange() {
        var roster = GroupRoster<Member>()
        let (first, second) = (Member(), Member())
        _ = roster.setSymbols(["AAPL", "MSFT"], of: first)
        _ = roster.setSymbols(["NVDA"], of: second)
        let change = roster.setSymbols(["MSFT", "NVDA", "TSLA"], of: first)
        #expect(change == Change(added: ["NVDA", "TSLA"], newToGroup: ["TSLA"], goneFromGroup: ["AAPL"]))
        #expect(change.changesGroup)
        #expect(roster.symbols == ["MSFT", "NVDA", "TSLA"])
        #expect(roster.followers(of: "NVDA").map(ObjectIdentifier.init) == [second, first].map(ObjectIdentifier.init))
    }

    @Test func removingEveryoneReturnsEachMemberOnce() {
        var roster = GroupRoster<Member>()
        let (first, second) = (Member(), Member())
        _ = roster.setSymbols(["AAPL", "MSFT"], of: first)
        _ = roster.setSymbols(["MSFT"], of: second)
        let everyone = roster.removeAll()
        #expect(Set(everyone.map(ObjectIdentifier.init)) == Set([first, second].map(ObjectIdentifier.init)))
        #expect(everyone.count == 2)
        #expect(roster.symbols.isEmpty)
        #expect(roster.symbols(of: first).isEmpty)
    }
}
