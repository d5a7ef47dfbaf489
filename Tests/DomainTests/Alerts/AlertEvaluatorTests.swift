import Domain
import Foundation
import Testing

private func price(_ text: String) -> ExactDecimal {
    guard let value = ExactDecimal(parsing: text) else { preconditionFailure("\(text) is not a decimal") }
    return value
}

private let setAt = Date(timeIntervalSince1970: 1_790_000_000)
private let now = setAt.addingTimeInterval(60)

private func quote(_ symbol: String = "AAPL", _ last: String, age: TimeInterval = 0) -> CommonQuote {
    CommonQuote(symbol: symbol, last: price(last), timestamp: now.addingTimeInterval(-age))
}

private func book(_ condition: AlertCondition, scope: AlertBrokerScope = .any, rearm: AlertRearm = .once, symbol: String = "AAPL") -> AlertBook {
    var book = AlertBook()
    book.add(AlertDraft(symbol: symbol, condition: condition, scope: scope, rearm: rearm), at: setAt)
    return book
}

/// Evaluates one quote from `broker` and returns the book after it and the prices that fired.
private func feed(_ book: AlertBook, _ last: String, broker: String = "demo-alpha", age: TimeInterval = 0) -> (AlertBook, [ExactDecimal]) {
    let result = AlertEvaluator.evaluate(quote("AAPL", last, age: age), from: broker, in: book, now: now, staleAfter: 30)
    return (result.book, result.firings.map(\.price))
}

@Suite struct AlertConditionTests {
    @Test func aboveAndBelowAreInclusive() {
        #expect(AlertCondition.above(price("190.5")).isMet(by: price("190.5")))
        #expect(AlertCondition.above(price("190.5")).isMet(by: price("190.50000001")))
        #expect(!AlertCondition.above(price("190.5")).isMet(by: price("190.49999999")))
        #expect(AlertCondition.below(price("180")).isMet(by: price("180.00")))
        #expect(AlertCondition.below(price("180")).isMet(by: price("179.99")))
        #expect(!AlertCondition.below(price("180")).isMet(by: price("180.00000001")))
    }

    @Test func moveUpIsMeasuredFromTheReference() {
        let up = AlertCondition.move(percent: price("5"), reference: price("200"))
        #expect(up.isMet(by: price("210")))          // exactly +5 %
        #expect(up.isMet(by: price("230")))
        #expect(!up.isMet(by: price("209.99999999")))
        #expect(!up.isMet(by: price("150")))          // a fall is not a rise
    }

    @Test func moveDownIsMeasuredFromTheReference() {
        let down = AlertCondition.move(percent: price("-3"), reference: price("100"))
        #expect(down.isMet(by: price("97")))          // exactly −3 %
        #expect(down.isMet(by: price("50")))
        #expect(!down.isMet(by: price("97.00000001")))
        #expect(!down.isMet(by: price("120")))
    }

    /// A percent whose target is not on the price grid: +0.001 % of 190.12 is 190.1219012.
    @Test func tinyMoveDoesNotRoundAcrossTheLine() {
        let tiny = AlertCondition.move(percent: price("0.001"), reference: price("190.12"))
        #expect(!tiny.isMet(by: price("190.12190119")))
        #expect(tiny.isMet(by: price("190.1219012")))
    }

    @Test func summaries() {
        #expect(AlertCondition.above(price("190.5")).summary == "> 190.5")
        #expect(AlertCondition.below(price("180")).summary == "< 180")
        #expect(AlertCondition.move(percent: price("5"), reference: price("185.2")).summary == "+5% from 185.2")
        #expect(AlertCondition.move(percent: price("-3"), reference: price("185.2")).summary == "-3% from 185.2")
    }
}

@Suite struct AlertEvaluatorTests {
    @Test func firesWhenThePriceCrossesAndOnlyOnce() {
        let start = book(.above(price("190.5")))
        let (below, none) = feed(start, "190.4")
        #expect(none.isEmpty)
        #expect(below.alerts[0].isArmed)
        let (crossed, fired) = feed(below, "190.6")
        #expect(fired == [price("190.6")])
        #expect(!crossed.alerts[0].isArmed)
        #expect(crossed.alerts[0].lastFired == Alert.Fired(at: now, brokerID: "demo-alpha", price: price("190.6")))
        // Staying above, dipping below and crossing again: a `.once` alert stays quiet.
        let (still, again) = feed(crossed, "191")
        #expect(again.isEmpty)
        let (dipped, _) = feed(still, "189")
        let (_, recrossed) = feed(dipped, "192")
        #expect(recrossed.isEmpty)
    }

    @Test func exactlyAtTheThresholdFires() {
        #expect(feed(book(.above(price("190.5"))), "190.50").1 == [price("190.50")])
        #expect(feed(book(.below(price("180"))), "180").1 == [price("180")])
    }

    @Test func belowFiresOnAFall() {
        let start = book(.below(price("180")))
        #expect(feed(start, "181").1.isEmpty)
        #expect(feed(start, "179.5").1 == [price("179.5")])
    }

    @Test func movesUpAndDown() {
        let up = book(.move(percent: price("5"), reference: price("100")))
        #expect(feed(up, "104.99").1.isEmpty)
        #expect(feed(up, "105").1 == [price("105")])
        #expect(feed(up, "90").1.isEmpty)
        let down = book(.move(percent: price("-3"), reference: price("100")))
        #expect(feed(down, "97.01").1.isEmpty)
        #expect(feed(down, "96").1 == [price("96")])
        #expect(feed(down, "110").1.isEmpty)
    }

    @Test func anyBrokerFiresOnWhicheverBrokerCrosses() {
        let start = book(.above(price("190")), scope: .any)
        #expect(feed(start, "191", broker: "demo-beta").1 == [price("191")])
        #expect(feed(start, "191", broker: "tradier").1 == [price("191")])
    }

    @Test func oneBrokerIgnoresTheOthers() {
        let start = book(.above(price("190")), scope: .broker("demo-beta"))
        let (unchanged, none) = feed(start, "195", broker: "demo-alpha")
        #expect(none.isEmpty)
        #expect(unchanged == start)
        #expect(feed(start, "195", broker: "demo-beta").1 == [price("195")])
    }

    @Test func otherSymbolsAreIgnored() {
        let start = book(.above(price("1")), symbol: "MSFT")
        #expect(feed(start, "500").1.isEmpty)
    }

    @Test func rearmsOnlyAfterTheConditionClears() {
        let start = book(.above(price("190")), rearm: .whenCleared)
        let (fired, first) = feed(start, "191")
        #expect(first.count == 1)
        // Still above: no second ring.
        let (still, none) = feed(fired, "192")
        #expect(none.isEmpty)
        #expect(!still.alerts[0].isArmed)
        // Exactly at the line still meets the condition, so it has not cleared.
        let (atLine, _) = feed(still, "190")
        #expect(!atLine.alerts[0].isArmed)
        let (cleared, clearing) = feed(atLine, "189.99")
        #expect(clearing.isEmpty)
        #expect(cleared.alerts[0].isArmed)
        #expect(feed(cleared, "190.01").1 == [price("190.01")])
    }

    @Test func rearmWaitsForTheBrokerThatFired() {
        let start = book(.above(price("190")), rearm: .whenCleared)
        let (fired, _) = feed(start, "191", broker: "demo-alpha")
        // Another broker below the line does not clear it: the two would make it ring on every tick.
        let (other, _) = feed(fired, "189", broker: "demo-beta")
        #expect(!other.alerts[0].isArmed)
        let (cleared, _) = feed(other, "189", broker: "demo-alpha")
        #expect(cleared.alerts[0].isArmed)
    }

    @Test func staleQuotesNeitherFireNorClear() {
        let start = book(.above(price("190")), rearm: .whenCleared)
        let (unchanged, none) = feed(start, "195", age: 31)
        #expect(none.isEmpty)
        #expect(unchanged == start)
        let (fired, _) = feed(start, "195")
        let (stillFired, _) = feed(fired, "180", age: 31)
        #expect(!stillFired.alerts[0].isArmed)
        // Exactly at the threshold age is still fresh.
        #expect(feed(start, "195", age: 30).1.count == 1)
    }

    @Test func absentPricesDoNotFire() {
        let start = book(.below(price("10")))
        #expect(feed(start, "0").1.isEmpty)
        #expect(feed(start, "-1").1.isEmpty)
    }

    @Test func aBatchIsEvaluatedInKeyOrderAndReportsEachChangeOnce() {
        var start = AlertBook()
        start.add(AlertDraft(symbol: "AAPL", condition: .above(price("190")), scope: .any, rearm: .whenCleared), at: setAt)
        start.add(AlertDraft(symbol: "MSFT", condition: .below(price("400")), scope: .broker("demo-beta"), rearm: .once), at: setAt)
        let quotes: [QuoteKey: CommonQuote] = [
            QuoteKey(brandID: "demo-beta", symbol: "AAPL"): quote("AAPL", "189"),
            QuoteKey(brandID: "demo-alpha", symbol: "AAPL"): quote("AAPL", "191"),
            QuoteKey(brandID: "demo-alpha", symbol: "MSFT"): quote("MSFT", "390"),
            QuoteKey(brandID: "demo-beta", symbol: "MSFT"): quote("MSFT", "399"),
            QuoteKey(brandID: "demo-alpha", symbol: "INTC"): quote("INTC", "20"),
        ]
        let result = AlertEvaluator.evaluate(quotes, in: start, now: now, staleAfter: 30)
        // demo-alpha's AAPL comes first and fires; demo-beta's 189 does not clear what alpha fired.
        #expect(result.firings.map { "\($0.symbol)@\($0.brokerID) \($0.price)" } == ["AAPL@demo-alpha 191", "MSFT@demo-beta 399"])
        #expect(result.changed.map(\.id) == [1, 2])
        #expect(result.book.alerts.allSatisfy { !$0.isArmed })
    }

    @Test func bookGivesIdsAndKeepsWholeSeconds() {
        var book = AlertBook()
        let first = book.add(AlertDraft(symbol: "AAPL", condition: .above(price("1")), scope: .any, rearm: .once), at: setAt.addingTimeInterval(0.75))
        let second = book.add(AlertDraft(symbol: "AAPL", condition: .above(price("2")), scope: .any, rearm: .once), at: setAt)
        #expect((first.id, second.id) == (1, 2))
        #expect(first.createdAt == setAt)
        book.remove(id: 1)
        #expect(book.add(AlertDraft(symbol: "X", condition: .below(price("1")), scope: .any, rearm: .once), at: setAt).id == 3)
        #expect(book.remove(id: 1) == nil)
    }

    @Test func adoptingStatesKeepsDeletionsDeleted() {
        var mine = book(.above(price("1")))
        mine.add(AlertDraft(symbol: "MSFT", condition: .above(price("1")), scope: .any, rearm: .once), at: setAt)
        var fired = mine.alerts[1]
        fired.isArmed = false
        var onDisk = mine
        onDisk.remove(id: 2)
        onDisk.adoptStates(of: [fired])
        #expect(onDisk.alerts.map(\.id) == [1])
        var kept = mine
        kept.adoptStates(of: [fired])
        #expect(kept.alerts[1].isArmed == false)
    }
}
