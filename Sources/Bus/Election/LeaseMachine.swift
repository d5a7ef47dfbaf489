/// Who leads one broker: the rules of the lease, pure. The session feeds it what it saw (the lease key
/// from its watch, the answers to its writes) and the time on its clock, and carries out the one write
/// it asks for at a time.
///
/// - A follower that may lead creates the lease when there is none, and takes it over (a write expecting
///   the revision it saw) once that revision has stood unchanged for the policy's time to live.
/// - A pinned process (`role: "leader"`) takes the lease at once from a holder that is not pinned.
/// - A leader renews every `renewEvery`; it steps down when a write is refused (someone else holds the
///   lease) or when the watch shows another holder at a newer revision. A refusal right after a write
///   whose answer was lost proves nothing (that write may have landed), so the leader then waits for the
///   watch to say who wrote, for up to `timeToLive`.
/// - A lease written by this process's earlier session (same instance) is taken back at once.
public struct LeaseMachine: Sendable {
    public enum Role: Sendable, Hashable {
        case follower
        case leader
    }

    public enum Action: Sendable, Hashable {
        /// Write the lease only if the key has no value.
        case create(BusLease)
        /// Write the lease expecting `revision` to be the latest: a takeover, or a renewal.
        case write(BusLease, expectedRevision: UInt64)
    }

    /// The lease as last seen on the bus.
    public struct Sighting: Sendable, Hashable {
        public var lease: BusLease?
        public var revision: UInt64
        /// When, on our clock, this revision was first seen.
        public var since: Duration
    }

    public let me: BusLease
    public let policy: LeasePolicy
    public let canLead: Bool
    public private(set) var role: Role = .follower
    public private(set) var sighting: Sighting?
    /// The watch has delivered the key's value, or said it has none.
    public private(set) var caughtUp = false
    private var heldRevision: UInt64?
    private var lastRenewal: Duration = .zero
    private var writeInFlight = false
    private var standingDownUntil: Duration?
    /// The bus connection is down: nothing is written until it is back (see `busLost`).
    private var busAway = false
    /// The last write failed in a way that may have applied it all the same (`failed`, a timeout).
    private var lastWriteUnanswered = false
    /// Since when a leader, refused after an unanswered write, waits for its watch to show the newer
    /// revision: its own (the lost write landed, and it goes on leading) or another holder's.
    private var awaitingWatchSince: Duration?
    /// The revision the write in flight expects (nil for a create).
    private var writeExpected: UInt64?

    public init(me: BusLease, policy: LeasePolicy, canLead: Bool) {
        self.me = me
        self.policy = policy
        self.canLead = canLead
    }

    /// The current holder as the footer names it (`host:pid`), or nil when nobody holds the lease.
    public var leader: String? {
        if role == .leader { return me.holder }
        return sighting?.lease?.holder
    }

    // MARK: What the watch saw

    /// The lease key's value at `revision` (nil: deleted or purged).
    public mutating func observed(_ lease: BusLease?, revision: UInt64, at now: Duration) {
        if sighting?.revision != revision || sighting?.lease != lease {
            sighting = Sighting(lease: lease, revision: revision, since: now)
        }
        if role == .leader, revision > (heldRevision ?? 0), lease?.instance != me.instance {
            stepDown()
        }
        if role == .leader, lease?.instance == me.instance, revision > (heldRevision ?? 0) {
            heldRevision = revision
            awaitingWatchSince = nil
        }
    }

    /// The watch delivered everything there was; with no sighting, the key has no value.
    public mutating func caughtUp(at now: Duration) {
        caughtUp = true
    }

    // MARK: Deciding

    /// The write to make now, if any; nil while one is in flight.
    public mutating func next(at now: Duration) -> Action? {
        guard !writeInFlight, caughtUp, !busAway else { return nil }
        let action: Action?
        switch role {
        case .leader:
            if let since = awaitingWatchSince {
                // The watch never said: the lease may well be someone else's by now.
                if now - since >= policy.timeToLive { stepDown() }
                return nil
            }
            guard let heldRevision, now - lastRenewal >= policy.renewEvery else { return nil }
            action = .write(me, expectedRevision: heldRevision)
        case .follower:
            guard canLead, standingDownUntil.map({ now >= $0 }) ?? true else { return nil }
            standingDownUntil = nil
            guard let sighting, let holder = sighting.lease else {
                // Never written, or deleted by a holder that let go.
                action = sighting.map { .write(me, expectedRevision: $0.revision) } ?? .create(me)
                break
            }
            if holder.instance == me.instance
                || (me.pinned && !holder.pinned)
                || now - sighting.since >= policy.timeToLive {
                action = .write(me, expectedRevision: sighting.revision)
            } else {
                action = nil
            }
        }
        writeInFlight = action != nil
        if case .write(_, let expected)? = action { writeExpected = expected } else { writeExpected = nil }
        return action
    }

    // MARK: Answers to writes

    public mutating func written(revision: UInt64, at now: Duration) {
        writeInFlight = false
        lastWriteUnanswered = false
        // The watch and the write's answer race: the watch may already show a newer revision by someone
        // else (a pinned process that took the lease the moment it saw ours). Then the lease has moved on,
        // and leading on this answer would open a second upstream connection until the next renewal is
        // refused.
        if let sighting, sighting.revision > revision, sighting.lease?.instance != me.instance { return }
        role = .leader
        heldRevision = revision
        lastRenewal = now
        sighting = Sighting(lease: me, revision: revision, since: now)
    }

    /// The server refused the write: the key had moved on. Whoever wrote it holds the lease now, unless
    /// the write before had no answer: then it may be this leader's own, landed late (a cluster electing
    /// a new stream leader answers a write after the client gave up on it), and the watch decides.
    public mutating func refused(at now: Duration) {
        writeInFlight = false
        let afterUnanswered = lastWriteUnanswered
        lastWriteUnanswered = false
        guard role == .leader else { return }
        if let writeExpected, let heldRevision, heldRevision > writeExpected {
            // The watch showed this leader's own newer write while the renewal was in flight: that
            // write is what moved the key on. The next renewal expects its revision.
            return
        }
        if afterUnanswered {
            awaitingWatchSince = now
        } else {
            stepDown()
        }
    }

    /// The write failed without a refusal (the bus away, a timeout, nobody answering). A leader keeps
    /// leading until the watch shows someone else; its renewals go on being tried. `mayHaveLanded`:
    /// the server may have applied it all the same (a timeout), as opposed to never having taken it
    /// (no responders).
    public mutating func failed(at now: Duration, mayHaveLanded: Bool = true) {
        writeInFlight = false
        lastWriteUnanswered = mayHaveLanded
    }

    /// The upstream connection could not be opened: let go, and leave the lease to others for a while.
    public mutating func upstreamFailed(at now: Duration) {
        stepDown()
        standingDownUntil = now + policy.standDownAfterFailure
    }

    /// The write that lets go of the lease on close: a delete expecting the revision held.
    public var releaseRevision: UInt64? {
        role == .leader ? heldRevision : nil
    }

    private mutating func stepDown() {
        role = .follower
        heldRevision = nil
        awaitingWatchSince = nil
    }

    // MARK: The bus going and coming back

    /// Connected to the bus again: renewals made meanwhile could not be seen, so the lease's time
    /// starts over from now, plus the policy's `reconnectGrace` for a leader that reconnects later. Without this, a follower would take the lease from a leader that renewed
    /// all along on a node this follower could not reach, or that has not had a moment to renew yet.
    public mutating func busReturned(at now: Duration) {
        busAway = false
        sighting?.since = now + policy.reconnectGrace
    }

    /// The bus connection dropped. No lease is written while it is down: a follower cannot see
    /// renewals, so it cannot judge the lease expired; and a write made now would be queued by the
    /// client and sent on reconnection, long after its answer was given up on, taking a lease nobody
    /// then knows it holds.
    public mutating func busLost() {
        busAway = true
    }

    /// A follower has seen no renewal for two renewal periods: its leader is probably gone, and what it
    /// shows may no longer be live, though the lease has not expired yet.
    public func leaderSilent(at now: Duration) -> Bool {
        guard role == .follower, let sighting, sighting.lease != nil else { return false }
        return now - sighting.since > policy.renewEvery * 2
    }
}
