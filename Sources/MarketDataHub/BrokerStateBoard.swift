import Domain
import Locking

/// The connection state of every broker, shared by all subscribers: a change is written once and
/// each subscriber picks it up on its next drain.
///
/// One version counter for the whole board, stamped on the state it changed: a subscriber remembers
/// a single number, not one per broker (an array per subscriber was 48 bytes of each one's heap).
final class BrokerStateBoard: Sendable {
    let brokers: [String]
    private let cells: Locked<Cells>

    private struct Cells {
        var states: [(state: BrokerConnectionState, version: UInt64)]
        var skippedFrames: [(count: Int, version: UInt64)]
        var version: UInt64
    }

    /// Every state starts at version 1, so a subscriber that has seen version 0 gets every state. Skipped
    /// frame counts start at version 0: a count of zero is not news.
    init(brokers: [String], initial: BrokerConnectionState = .connecting) {
        self.brokers = brokers
        cells = Locked(Cells(
            states: Array(repeating: (initial, 1), count: brokers.count),
            skippedFrames: Array(repeating: (0, 0), count: brokers.count), version: 1))
    }

    func set(_ state: BrokerConnectionState, at index: Int) {
        cells.withLock { cells in
            cells.version += 1
            cells.states[index] = (state, cells.version)
        }
    }

    func setSkippedFrames(_ count: Int, at index: Int) {
        cells.withLock { cells in
            cells.version += 1
            cells.skippedFrames[index] = (count, cells.version)
        }
    }

    /// Adds states changed after version `seen` to `update` and advances `seen`.
    func collect(since seen: inout UInt64, into update: inout MarketUpdate) {
        cells.withLock { cells in
            guard cells.version > seen else { return }
            for index in cells.states.indices where cells.states[index].version > seen {
                update.brokerStates[brokers[index]] = cells.states[index].state
            }
            for index in cells.skippedFrames.indices where cells.skippedFrames[index].version > seen {
                update.skippedFrames[brokers[index]] = cells.skippedFrames[index].count
            }
            seen = cells.version
        }
    }
}
