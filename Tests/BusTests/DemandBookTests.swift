import Bus
import Testing

@Suite("DemandBook: every process's demand for a broker")
struct DemandBookTests {
    @Test("an empty book's union is this process's own demand")
    func empty() {
        let book = DemandBook(timeToLive: .seconds(6))
        #expect(book.timeToLive == .seconds(6))
        #expect(book.instances.isEmpty)
        #expect(book.union(with: []).isEmpty)
        #expect(book.union(with: ["AAPL"]) == ["AAPL"])
    }

    @Test("a demand set again replaces the one before, it does not add to it")
    func replace() {
        var book = DemandBook(timeToLive: .seconds(6))
        book.set(["AAPL", "MSFT"], for: "i1", at: .zero)
        #expect(book.union(with: []) == ["AAPL", "MSFT"])
        book.set(["BRK.B"], for: "i1", at: .seconds(1))
        #expect(book.union(with: []) == ["BRK.B"])
        #expect(book.instances == ["i1"])
        book.set([], for: "i1", at: .seconds(2))
        #expect(book.union(with: ["^GSPC"]) == ["^GSPC"])
        #expect(book.instances == ["i1"], "an empty demand is still a live process")
    }

    @Test("the union covers every instance and this process's own symbols, each once")
    func union() {
        var book = DemandBook(timeToLive: .seconds(6))
        book.set(["AAPL", "MSFT"], for: "i2", at: .zero)
        book.set(["MSFT", "BRK.B"], for: "i1", at: .zero)
        book.set(["^GSPC"], for: "i3", at: .zero)
        #expect(book.instances == ["i1", "i2", "i3"])
        #expect(book.union(with: ["AAPL", "TSLA"]) == ["AAPL", "MSFT", "BRK.B", "^GSPC", "TSLA"])
    }

    @Test("a removed instance's symbols leave the union; removing an unknown one changes nothing")
    func remove() {
        var book = DemandBook(timeToLive: .seconds(6))
        book.set(["AAPL", "MSFT"], for: "i1", at: .zero)
        book.set(["MSFT"], for: "i2", at: .zero)
        book.remove("i1")
        #expect(book.instances == ["i2"])
        #expect(book.union(with: []) == ["MSFT"])
        book.remove("nobody")
        #expect(book.instances == ["i2"])
        book.remove("i2")
        #expect(book.union(with: ["X"]) == ["X"])
    }

    @Test("a demand expires strictly after the time to live since it was last set")
    func expiry() {
        var book = DemandBook(timeToLive: .seconds(6))
        book.set(["AAPL"], for: "i1", at: .seconds(10))
        #expect(book.expire(at: .seconds(16)).isEmpty)
        #expect(book.union(with: []) == ["AAPL"])
        #expect(book.expire(at: .seconds(16) + .nanoseconds(1)) == ["i1"])
        #expect(book.instances.isEmpty)
        #expect(book.union(with: []).isEmpty)
        #expect(book.expire(at: .seconds(100)).isEmpty, "nothing left to drop")
    }

    @Test("a heartbeat keeps a demand alive; only the instances not rewritten are dropped, in order")
    func heartbeat() {
        var book = DemandBook(timeToLive: .seconds(6))
        book.set(["A"], for: "i3", at: .zero)
        book.set(["B"], for: "i1", at: .zero)
        book.set(["C"], for: "i2", at: .zero)
        book.set(["C"], for: "i2", at: .seconds(5))
        #expect(book.expire(at: .seconds(6)).isEmpty)
        #expect(book.expire(at: .seconds(7)) == ["i1", "i3"])
        #expect(book.union(with: []) == ["C"])
        #expect(book.expire(at: .seconds(11)).isEmpty)
        #expect(book.expire(at: .seconds(12)) == ["i2"])
    }

    @Test("an expired instance that writes again is back")
    func comesBack() {
        var book = DemandBook(timeToLive: .seconds(6))
        book.set(["A"], for: "i1", at: .zero)
        #expect(book.expire(at: .seconds(7)) == ["i1"])
        book.set(["B"], for: "i1", at: .seconds(8))
        #expect(book.instances == ["i1"])
        #expect(book.union(with: []) == ["B"])
    }
}
