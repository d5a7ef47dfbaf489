import Foundation

/// The JSON values of the bus's small keys: written seldom (a lease every few seconds, a demand when it
/// changes), so plain `Codable`, read strictly: anything that does not decode is refused as a whole.
enum BusRecords {
    static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? Array(encoder.encode(value))) ?? []
    }

    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], what: String) -> Result<T, BusWireError> {
        do {
            return .success(try JSONDecoder().decode(T.self, from: Data(bytes)))
        } catch {
            return .failure(BusWireError("\(what) on the bus is not valid JSON of the expected shape (\(bytes.count) bytes)"))
        }
    }
}

/// `lease.<broker>`: the process that holds the broker's one upstream connection.
public struct BusLease: Codable, Sendable, Hashable {
    /// `host:pid`, as the footer shows it.
    public var holder: String
    /// Unique per process run, so a restarted process with the same pid is not taken for its predecessor.
    public var instance: String
    /// True for `role: "leader"` (a relay): it takes the lease from an `auto` holder at once.
    public var pinned: Bool

    public init(holder: String, instance: String, pinned: Bool) {
        self.holder = holder
        self.instance = instance
        self.pinned = pinned
    }
}

/// `state.<broker>`: how the leader's connection to the broker is doing.
public struct BusBrokerState: Codable, Sendable, Hashable {
    public enum Condition: String, Codable, Sendable {
        case connecting, live, retrying, down
    }

    public var condition: Condition
    /// Why it is not live, printable; empty when live.
    public var reason: String
    public var leader: String

    public init(condition: Condition, reason: String = "", leader: String) {
        self.condition = condition
        self.reason = reason
        self.leader = leader
    }
}

/// `demand.<instance>.<broker>`: the symbols one process shows, rewritten as a heartbeat.
public struct BusDemand: Codable, Sendable, Hashable {
    public var symbols: [String]

    public init(symbols: Set<String>) {
        self.symbols = symbols.sorted()
    }
}
