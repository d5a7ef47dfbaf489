@testable import Networking
import Testing

@Suite struct NATSServerPoolTests {
    static func address(_ port: Int, tls: Bool = false) -> NATSServerAddress { NATSServerAddress(host: "127.0.0.1", port: port, requiresTLS: tls) }

    @Test func urlsGiveAddressesAndCredentialsThatAreNeverShown() throws {
        #expect(NATSServerAddress.parse("nats://127.0.0.1:4223")?.address == Self.address(4223))
        #expect(NATSServerAddress.parse("tls://nats.example.com")?.address == NATSServerAddress(host: "nats.example.com", port: 4222, requiresTLS: true))
        #expect(NATSServerAddress.parse("[::1]:4224")?.address == NATSServerAddress(host: "::1", port: 4224))
        #expect(NATSServerAddress(host: "::1", port: 4224).description == "nats://[::1]:4224")
        let withPassword = try #require(NATSServerAddress.parse("nats://alice:s%40cret@h:1"))
        #expect(withPassword.credentials == .userPassword(user: "alice", password: "s@cret"))
        #expect(withPassword.address.description == "nats://h:1")
        #expect(NATSServerAddress.parse("nats://tok3n@h")?.credentials == .token("tok3n"))
        for refused in ["http://h:1", "nats://h:0", "nats://h:70000", "nats://", "nats://h/path", "nats://h?x=1"] {
            #expect(NATSServerAddress.parse(refused) == nil, "\(refused)")
        }
    }

    @Test func turnsGoRoundStartingAfterTheLastServerConnectedTo() {
        var pool = NATSServerPool(seeds: [Self.address(1), Self.address(2), Self.address(1), Self.address(3)])
        #expect(pool.servers == [Self.address(1), Self.address(2), Self.address(3)])
        #expect((0..<4).map { _ in pool.next().port } == [1, 2, 3, 1])
        pool.connected(to: Self.address(2))
        #expect((0..<3).map { _ in pool.next().port } == [3, 1, 2], "the lost server is tried last")
    }

    @Test func connectURLsAddServersAndDropThoseNoLongerListed() {
        var pool = NATSServerPool(seeds: [Self.address(1, tls: true)])
        let added = pool.update(connectURLs: ["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3", "not a url at all ::"], requiresTLS: true, current: Self.address(1, tls: true))
        #expect(added == [Self.address(2, tls: true), Self.address(3, tls: true)], "learned servers inherit TLS")
        #expect(pool.servers.map(\.port) == [1, 2, 3])
        // The cluster lost node 2: it goes; the seed stays even when unlisted.
        #expect(pool.update(connectURLs: ["127.0.0.1:3"], requiresTLS: true, current: Self.address(3, tls: true)).isEmpty)
        #expect(pool.servers.map(\.port) == [1, 3])
        #expect(pool.update(connectURLs: [], requiresTLS: true, current: Self.address(3, tls: true)).isEmpty)
        #expect(pool.servers.map(\.port) == [1, 3], "never the server connected to")
    }
}
