import Domain
import Synchronization

/// The connection state of every broker with a version per broker, shared by all subscribers:
/// a change is written once and each subscriber picks it up on its next drain.
final class BrokerStateBoard: Sendable {
    let brokers: [String]
    private let cells: Mutex<[(state: BrokerConnectionState, version: UInt64)]>

    /// Versions start at 1, so a subscriber that has seen version 0 of everything gets every state.
    init(brokers: [String], initial: BrokerConnectionState = .connecting) {
        self.brokers = brokers
        cells = Mutex(Array(repeating: (initial, 1), count: brokers.count))
    }

    func set(_ state: BrokerConnectionState, at index: Int) {
        cells.withLock { cells in
            cells[index].version += 1
            cells[index].state = state
        }
    }

    /// Adds states changed after `seen` to `update` and advances `seen`.
    func collect(since seen: inout [UInt64], into update: inout MarketUpdate) {
        cells.withLock { cells in
            for index in cells.indices where cells[index].version > seen[index] {
                update.brokerStates[brokers[index]] = cells[index].state
                seen[index] = cells[index].version
            }
        }
    }
}
