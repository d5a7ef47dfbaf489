@testable import Networking
import Testing

/// The idle pool's rules with strings for connections and instants made from one start, no clock.
@Suite struct HTTPIdleConnectionsTests {
    let start = ContinuousClock.now
    let api = HTTPOrigin(usesTLS: true, host: "api.example.com", port: 443)
    let other = HTTPOrigin(usesTLS: false, host: "api.example.com", port: 443)

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    @Test func theMostRecentlyReturnedConnectionOfTheOriginIsTakenFirst() {
        var pool = HTTPIdleConnections<String>()

        #expect(pool.put("a", for: api, now: at(0)).isEmpty)
        #expect(pool.put("b", for: api, now: at(1)).isEmpty)
        #expect(pool.put("c", for: other, now: at(1)).isEmpty)

        #expect(pool.take(for: api, now: at(2)) == ("b", []))
        #expect(pool.take(for: api, now: at(2)) == ("a", []))
        #expect(pool.take(for: api, now: at(2)) == (nil, []))
        #expect(pool.count(for: other) == 1)
    }

    @Test func atMostFourWaitPerOriginAndTheOldestGoes() {
        var pool = HTTPIdleConnections<String>()
        for (index, name) in ["a", "b", "c", "d"].enumerated() {
            #expect(pool.put(name, for: api, now: at(Double(index))).isEmpty)
        }

        #expect(pool.put("e", for: api, now: at(5)) == ["a"])
        #expect(pool.count(for: api) == 4)
        #expect(pool.put("x", for: other, now: at(5)).isEmpty)
    }

    @Test func connectionsIdleForThirtySecondsAreHandedBackToCloseWhateverTheirOrigin() {
        var pool = HTTPIdleConnections<String>()
        _ = pool.put("old", for: other, now: at(0))
        _ = pool.put("older", for: api, now: at(0))
        _ = pool.put("fresh", for: api, now: at(10))

        let taken = pool.take(for: api, now: at(30))

        #expect(taken.connection == "fresh")
        #expect(Set(taken.expired) == ["old", "older"])
        #expect(pool.totalCount == 0)
        // Just under the limit, a connection stays.
        _ = pool.put("kept", for: api, now: at(40))
        #expect(pool.take(for: api, now: at(69.9)) == ("kept", []))
    }

    @Test func expiredConnectionsAreAlsoHandedBackWhenOneIsReturned() {
        var pool = HTTPIdleConnections<String>()
        _ = pool.put("old", for: other, now: at(0))

        #expect(pool.put("new", for: api, now: at(31)) == ["old"])
        #expect(pool.removeAll() == ["new"])
        #expect(pool.totalCount == 0)
    }

    @Test func aPoolOfNoneKeepsNothing() {
        var pool = HTTPIdleConnections<String>(maxPerOrigin: 0)

        #expect(pool.put("a", for: api, now: at(0)) == ["a"])
        #expect(pool.totalCount == 0)
    }
}
