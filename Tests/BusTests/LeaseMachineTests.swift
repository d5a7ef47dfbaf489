import Bus
import Testing

/// `LeaseMachine` driven step by step: what the watch shows, when the session asks for the next write,
/// and how each write is answered, with the time on the contender's clock given as a `Duration`.
@Suite("LeaseMachine: who leads a broker")
struct LeaseMachineTests {
    static let policy = LeasePolicy(timeToLive: .seconds(6), renewEvery: .seconds(2), standDownAfterFailure: .seconds(12))
    static let me = BusLease(holder: "me:1", instance: "i-me", pinned: false)
    static let myRelay = BusLease(holder: "me:1", instance: "i-me", pinned: true)
    static let other = BusLease(holder: "other:2", instance: "i-other", pinned: false)
    static let otherRelay = BusLease(holder: "relay:3", instance: "i-relay", pinned: true)

    /// One thing that happens to the machine, or one thing checked about it.
    enum Step: Sendable {
        case see(BusLease?, revision: UInt64, at: Duration)
        case caughtUp(at: Duration)
        /// `next(at:)` must give this action (nil: no write now).
        case next(at: Duration, gives: LeaseMachine.Action?)
        case written(revision: UInt64, at: Duration)
        case refused(at: Duration)
        case failed(at: Duration)
        /// A failure that cannot have reached the server (nobody answered).
        case notTaken(at: Duration)
        case upstreamFailed(at: Duration)
        case busLost
        case busReturned(at: Duration)
        /// `leaderSilent(at:)` must say this.
        case silent(at: Duration, Bool)
        case role(LeaseMachine.Role)
        case leader(String?)
        case release(UInt64?)
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        var me: BusLease = LeaseMachineTests.me
        var canLead = true
        let steps: [Step]

        var testDescription: String { name }
    }

    static func ms(_ milliseconds: Int64) -> Duration { .milliseconds(milliseconds) }

    /// Caught up on an empty key, created the lease, and it was written at `revision`, at time zero.
    static func leading(_ me: BusLease = me, revision: UInt64 = 1) -> [Step] {
        [.caughtUp(at: .zero), .next(at: .zero, gives: .create(me)), .written(revision: revision, at: .zero), .role(.leader)]
    }

    /// Leading at revision 1, a renewal at 2 s that fails with `failure` at 2.1 s, and the renewal
    /// tried again at once, still in flight: where a refusal may be the lost write's own doing.
    static func retryingALostRenewal(_ failure: Step = .failed(at: ms(2_100))) -> [Step] {
        leading() + [
            .next(at: .seconds(2), gives: .write(me, expectedRevision: 1)),
            failure,
            .next(at: ms(2_100), gives: .write(me, expectedRevision: 1)),
        ]
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "nobody holds the lease: create it, once the watch caught up", steps: [
            .next(at: .zero, gives: nil),
            .next(at: .seconds(60), gives: nil),
            .caughtUp(at: .seconds(60)),
            .leader(nil), .release(nil),
            .next(at: .seconds(60), gives: .create(me)),
            .written(revision: 1, at: .seconds(60)),
            .role(.leader), .leader("me:1"), .release(1),
        ]),
        Scenario(name: "a lease seen before catching up is not acted on until caught up", steps: [
            .see(other, revision: 5, at: .zero),
            .next(at: .seconds(100), gives: nil),
            .caughtUp(at: .seconds(100)),
            .next(at: .seconds(100), gives: .write(me, expectedRevision: 5)),
        ]),
        Scenario(name: "a deleted lease is written over at once, expecting the delete's revision", steps: [
            .see(other, revision: 3, at: .zero),
            .see(nil, revision: 4, at: .seconds(1)),
            .caughtUp(at: .seconds(1)),
            .leader(nil),
            .next(at: .seconds(1), gives: .write(me, expectedRevision: 4)),
            .written(revision: 5, at: .seconds(1)),
            .role(.leader), .release(5),
        ]),
        Scenario(name: "one write in flight at a time", steps: [
            .caughtUp(at: .zero),
            .next(at: .zero, gives: .create(me)),
            .next(at: .zero, gives: nil),
            .next(at: .seconds(100), gives: nil),
            .failed(at: .seconds(100)),
            .next(at: .seconds(100), gives: .create(me)),
            .next(at: .seconds(100), gives: nil),
        ]),
        Scenario(name: "takeover only once the revision stood unchanged for the time to live", steps: [
            .see(other, revision: 3, at: .zero),
            .caughtUp(at: .zero),
            .leader("other:2"),
            .next(at: .zero, gives: nil),
            // The same revision seen again (a watch restart) does not restart the wait.
            .see(other, revision: 3, at: .seconds(5)),
            .next(at: ms(5_999), gives: nil),
            .next(at: .seconds(6), gives: .write(me, expectedRevision: 3)),
            .written(revision: 4, at: .seconds(6)),
            .role(.leader), .leader("me:1"), .release(4),
        ]),
        Scenario(name: "a renewal seen restarts the wait", steps: [
            .see(other, revision: 3, at: .zero),
            .caughtUp(at: .zero),
            .see(other, revision: 4, at: .seconds(4)),
            .next(at: .seconds(6), gives: nil),
            .next(at: ms(9_999), gives: nil),
            .next(at: .seconds(10), gives: .write(me, expectedRevision: 4)),
        ]),
        Scenario(name: "a pinned process takes the lease from an auto holder at once", me: myRelay, steps: [
            .see(other, revision: 3, at: .zero),
            .caughtUp(at: .zero),
            .next(at: .zero, gives: .write(myRelay, expectedRevision: 3)),
            .written(revision: 4, at: .zero),
            .role(.leader), .leader("me:1"),
        ]),
        Scenario(name: "a pinned process waits out another pinned holder", me: myRelay, steps: [
            .see(otherRelay, revision: 3, at: .zero),
            .caughtUp(at: .zero),
            .next(at: .zero, gives: nil),
            .next(at: ms(5_999), gives: nil),
            .next(at: .seconds(6), gives: .write(myRelay, expectedRevision: 3)),
        ]),
        Scenario(name: "an auto process waits out a pinned holder", steps: [
            .see(otherRelay, revision: 3, at: .zero),
            .caughtUp(at: .zero),
            .next(at: ms(5_999), gives: nil),
            .next(at: .seconds(6), gives: .write(me, expectedRevision: 3)),
        ]),
        Scenario(name: "this instance's own earlier lease is taken back at once", steps: [
            .see(me, revision: 7, at: .zero),
            .caughtUp(at: .zero),
            .role(.follower),
            .next(at: .zero, gives: .write(me, expectedRevision: 7)),
            .written(revision: 8, at: .zero),
            .role(.leader), .release(8),
        ]),
        Scenario(name: "a leader renews every renewEvery after its last renewal", steps: leading() + [
            .next(at: ms(1_999), gives: nil),
            .next(at: .seconds(2), gives: .write(me, expectedRevision: 1)),
            .next(at: .seconds(3), gives: nil),
            .written(revision: 2, at: ms(2_100)),
            // The watch echoing our own write changes nothing.
            .see(me, revision: 2, at: ms(2_150)),
            .role(.leader), .release(2),
            .next(at: ms(4_099), gives: nil),
            .next(at: ms(4_100), gives: .write(me, expectedRevision: 2)),
            .written(revision: 3, at: ms(4_100)),
            .release(3),
        ]),
        Scenario(name: "a refused renewal makes a follower of the leader", steps: leading() + [
            .next(at: .seconds(2), gives: .write(me, expectedRevision: 1)),
            .refused(at: .seconds(2)),
            .role(.follower), .release(nil),
            .see(otherRelay, revision: 2, at: ms(2_100)),
            .leader("relay:3"),
            .next(at: ms(2_100), gives: nil),
            .next(at: ms(8_099), gives: nil),
        ]),
        Scenario(name: "the watch showing another holder at a newer revision makes a follower of the leader", steps: leading() + [
            .see(other, revision: 2, at: .seconds(1)),
            .role(.follower), .leader("other:2"), .release(nil),
            .next(at: .seconds(1), gives: nil),
            .next(at: ms(6_999), gives: nil),
            .next(at: .seconds(7), gives: .write(me, expectedRevision: 2)),
        ]),
        Scenario(name: "a pinned leader unseated by an auto process takes the lease back at once", me: myRelay, steps: leading(myRelay) + [
            .see(other, revision: 2, at: .seconds(1)),
            .role(.follower),
            .next(at: .seconds(1), gives: .write(myRelay, expectedRevision: 2)),
        ]),
        Scenario(name: "the lease deleted under the leader: it follows, then writes over the delete", steps: leading() + [
            .see(nil, revision: 2, at: .seconds(1)),
            .role(.follower), .leader(nil), .release(nil),
            .next(at: .seconds(1), gives: .write(me, expectedRevision: 2)),
        ]),
        Scenario(name: "a lagging watch showing an older revision does not unseat the leader", steps: leading(revision: 5) + [
            .see(other, revision: 4, at: .seconds(1)),
            .role(.leader), .leader("me:1"), .release(5),
            .next(at: .seconds(2), gives: .write(me, expectedRevision: 5)),
        ]),
        Scenario(name: "a failed write (the bus away) keeps the leader leading, and the renewal is tried again", steps: leading() + [
            .next(at: .seconds(2), gives: .write(me, expectedRevision: 1)),
            .failed(at: .seconds(3)),
            .role(.leader), .leader("me:1"), .release(1),
            .next(at: .seconds(3), gives: .write(me, expectedRevision: 1)),
            .failed(at: .seconds(9)),
            .role(.leader),
        ]),
        Scenario(name: "a failed renewal that did reach the server: the leader renews from the revision its watch shows", steps: leading() + [
            .next(at: .seconds(2), gives: .write(me, expectedRevision: 1)),
            .failed(at: .seconds(2)),
            .see(me, revision: 2, at: ms(2_100)),
            .role(.leader), .release(2),
            .next(at: ms(2_100), gives: .write(me, expectedRevision: 2)),
        ]),
        Scenario(name: "refused after a renewal that got no answer: the watch shows that write landed, and the leader goes on", steps: retryingALostRenewal() + [
            .refused(at: ms(2_200)),
            // Whose write moved the key on is not known yet: no renewal, and no stepping down.
            .role(.leader), .leader("me:1"),
            .next(at: ms(2_200), gives: nil),
            .next(at: .seconds(5), gives: nil),
            .see(me, revision: 2, at: .seconds(5)),
            .role(.leader), .release(2),
            .next(at: .seconds(5), gives: .write(me, expectedRevision: 2)),
            .written(revision: 3, at: .seconds(5)),
            .role(.leader), .release(3),
        ]),
        Scenario(name: "refused after a renewal that got no answer: the watch shows another holder, and the leader follows", steps: retryingALostRenewal() + [
            .refused(at: ms(2_200)),
            .role(.leader),
            .see(otherRelay, revision: 2, at: ms(2_300)),
            .role(.follower), .leader("relay:3"), .release(nil),
            .next(at: ms(2_300), gives: nil),
        ]),
        Scenario(name: "refused after a renewal that got no answer: with no word from the watch for the time to live, the leader steps down", steps: retryingALostRenewal() + [
            .refused(at: ms(2_200)),
            .next(at: ms(8_199), gives: nil),
            .role(.leader),
            .next(at: ms(8_200), gives: nil),
            .role(.follower), .release(nil),
        ]),
        Scenario(name: "the watch shows the leader's own lost write while the next renewal is in flight: its refusal changes nothing", steps: retryingALostRenewal() + [
            .see(me, revision: 2, at: ms(2_150)),
            .refused(at: ms(2_200)),
            .role(.leader), .release(2),
            .next(at: ms(2_200), gives: .write(me, expectedRevision: 2)),
        ]),
        Scenario(name: "refused after a renewal nobody took: someone else moved the key on, and the leader follows at once", steps: retryingALostRenewal(.notTaken(at: ms(2_100))) + [
            .refused(at: ms(2_200)),
            .role(.follower), .release(nil),
        ]),
        Scenario(name: "a refusal after answered writes still unseats the leader at once", steps: retryingALostRenewal() + [
            .written(revision: 2, at: ms(2_200)),
            .next(at: ms(4_200), gives: .write(me, expectedRevision: 2)),
            .refused(at: ms(4_300)),
            .role(.follower), .release(nil),
        ]),
        Scenario(name: "a refused create: follow whoever the watch shows", steps: [
            .caughtUp(at: .zero),
            .next(at: .zero, gives: .create(me)),
            .refused(at: .zero),
            .role(.follower),
            .see(other, revision: 1, at: ms(100)),
            .leader("other:2"),
            .next(at: ms(100), gives: nil),
            .next(at: ms(6_100), gives: .write(me, expectedRevision: 1)),
        ]),
        Scenario(name: "the watch shows our write before its answer: leading as usual", steps: [
            .caughtUp(at: .zero),
            .next(at: .zero, gives: .create(me)),
            .see(me, revision: 1, at: ms(10)),
            .written(revision: 1, at: ms(20)),
            .role(.leader), .release(1),
            .next(at: ms(2_019), gives: nil),
            .next(at: ms(2_020), gives: .write(me, expectedRevision: 1)),
        ]),
        Scenario(name: "the watch shows another holder after our write before its answer: the answer does not make us lead", steps: [
            .caughtUp(at: .zero),
            .next(at: .zero, gives: .create(me)),
            .see(me, revision: 1, at: ms(10)),
            .see(otherRelay, revision: 2, at: ms(20)),
            .written(revision: 1, at: ms(30)),
            .role(.follower), .leader("relay:3"), .release(nil),
            .next(at: ms(30), gives: nil),
            .next(at: ms(6_019), gives: nil),
            .next(at: ms(6_020), gives: .write(me, expectedRevision: 2)),
        ]),
        Scenario(name: "after the upstream failed, stand down for standDownAfterFailure, then contend again", steps: leading() + [
            .upstreamFailed(at: .seconds(1)),
            .role(.follower), .release(nil),
            // The session deletes the lease it held.
            .see(nil, revision: 2, at: .seconds(1)),
            .leader(nil),
            .next(at: .seconds(1), gives: nil),
            .next(at: ms(12_999), gives: nil),
            .next(at: .seconds(13), gives: .write(me, expectedRevision: 2)),
        ]),
        Scenario(name: "standing down also holds back a pinned process, and a holder that came meanwhile is waited out as usual", me: myRelay, steps: leading(myRelay) + [
            .upstreamFailed(at: .seconds(1)),
            .see(nil, revision: 2, at: .seconds(1)),
            .see(other, revision: 3, at: .seconds(2)),
            .next(at: ms(12_999), gives: nil),
            .next(at: .seconds(13), gives: .write(myRelay, expectedRevision: 3)),
        ]),
        Scenario(name: "after the stand-down an auto process waits out the holder that came meanwhile", steps: leading() + [
            .upstreamFailed(at: .seconds(1)),
            .see(nil, revision: 2, at: .seconds(1)),
            .see(other, revision: 3, at: .seconds(10)),
            .next(at: .seconds(13), gives: nil),
            .next(at: ms(15_999), gives: nil),
            .next(at: .seconds(16), gives: .write(me, expectedRevision: 3)),
        ]),
        Scenario(name: "a process that cannot lead never writes", canLead: false, steps: [
            .caughtUp(at: .zero),
            .next(at: .zero, gives: nil),
            .see(nil, revision: 3, at: .zero),
            .next(at: .seconds(100), gives: nil),
            .see(other, revision: 4, at: .seconds(100)),
            .next(at: .seconds(1_000), gives: nil),
            .see(me, revision: 5, at: .seconds(1_000)),
            .next(at: .seconds(1_000), gives: nil),
            .role(.follower), .leader("me:1"), .release(nil),
        ]),
        Scenario(name: "a pinned process that cannot lead never preempts", me: myRelay, canLead: false, steps: [
            .see(other, revision: 4, at: .zero),
            .caughtUp(at: .zero),
            .next(at: .seconds(1_000), gives: nil),
            .leader("other:2"),
        ]),
        Scenario(name: "with the bus away nothing is written, however old the lease looks", steps: [
            .caughtUp(at: .zero),
            .see(other, revision: 7, at: .zero),
            .busLost,
            .next(at: .seconds(60), gives: nil),
            .role(.follower),
        ]),
        Scenario(name: "back on the bus, a follower waits the time to live plus the reconnect grace before taking over", steps: [
            .caughtUp(at: .zero),
            .see(other, revision: 7, at: .zero),
            .busLost,
            .busReturned(at: .seconds(60)),
            // 60 + 5 s grace + 6 s to live: not before 71 s.
            .next(at: .seconds(70), gives: nil),
            .see(other, revision: 8, at: .seconds(70)),
            .next(at: .seconds(75), gives: nil),
            .next(at: .seconds(76), gives: .write(me, expectedRevision: 8)),
        ]),
        Scenario(name: "a leader writes nothing while the bus is away and renews when it is back", steps: leading() + [
            .busLost,
            .next(at: .seconds(30), gives: nil),
            .role(.leader),
            .busReturned(at: .seconds(30)),
            .next(at: .seconds(30), gives: .write(me, expectedRevision: 1)),
        ]),
        Scenario(name: "a follower calls its leader silent after two renewal periods without a new revision", steps: [
            .caughtUp(at: .zero),
            .see(other, revision: 3, at: .seconds(1)),
            .silent(at: .seconds(5), false),
            .silent(at: .seconds(5) + .milliseconds(1), true),
            .see(other, revision: 4, at: .seconds(6)),
            .silent(at: .seconds(6), false),
            .see(nil, revision: 5, at: .seconds(7)),
            .silent(at: .seconds(100), false),
        ]),
        Scenario(name: "a leader is never silent to itself", steps: leading() + [
            .silent(at: .seconds(100), false),
        ]),
    ]

    @Test("scenarios", arguments: scenarios)
    func run(_ scenario: Scenario) {
        var machine = LeaseMachine(me: scenario.me, policy: Self.policy, canLead: scenario.canLead)
        #expect(machine.role == .follower)
        #expect(!machine.caughtUp)
        for (index, step) in scenario.steps.enumerated() {
            let at = "step \(index + 1) (\(step))"
            switch step {
            case .see(let lease, let revision, let now): machine.observed(lease, revision: revision, at: now)
            case .caughtUp(let now):
                machine.caughtUp(at: now)
                #expect(machine.caughtUp, "\(at)")
            case .next(let now, let expected): #expect(machine.next(at: now) == expected, "\(at)")
            case .written(let revision, let now): machine.written(revision: revision, at: now)
            case .refused(let now): machine.refused(at: now)
            case .failed(let now): machine.failed(at: now)
            case .notTaken(let now): machine.failed(at: now, mayHaveLanded: false)
            case .upstreamFailed(let now): machine.upstreamFailed(at: now)
            case .busLost: machine.busLost()
            case .busReturned(let now): machine.busReturned(at: now)
            case .silent(let now, let expected): #expect(machine.leaderSilent(at: now) == expected, "\(at)")
            case .role(let role): #expect(machine.role == role, "\(at)")
            case .leader(let holder): #expect(machine.leader == holder, "\(at)")
            case .release(let revision): #expect(machine.releaseRevision == revision, "\(at)")
            }
        }
    }

    @Test("the sighting keeps when a revision was first seen")
    func sightingSince() {
        var machine = LeaseMachine(me: Self.me, policy: Self.policy, canLead: true)
        #expect(machine.sighting == nil)
        machine.observed(Self.other, revision: 3, at: .seconds(1))
        machine.observed(Self.other, revision: 3, at: .seconds(4))
        #expect(machine.sighting?.lease == Self.other)
        #expect(machine.sighting?.revision == 3)
        #expect(machine.sighting?.since == .seconds(1))
        machine.observed(Self.other, revision: 4, at: .seconds(5))
        #expect(machine.sighting?.revision == 4)
        #expect(machine.sighting?.since == .seconds(5))
        machine.observed(Self.otherRelay, revision: 4, at: .seconds(6))
        #expect(machine.sighting?.lease == Self.otherRelay, "the same revision with another value is a new sighting")
        #expect(machine.sighting?.since == .seconds(6))
    }
}
