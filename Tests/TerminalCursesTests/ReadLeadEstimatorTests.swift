import Locking
import TerminalKit
import Testing

/// The paced reads' lead follows how late their prices reach the UI (ReadLeadEstimator).
@Suite struct ReadLeadEstimatorTests {
    private let start = ContinuousClock.Instant.now

    /// One frame whose slot was at `slot` ms and whose changes were heard at `arrivals` ms.
    private func frame(_ estimator: inout ReadLeadEstimator, slot: Int, arrivals: [Double]) {
        for arrival in arrivals {
            estimator.heard(at: start + .microseconds(Int64(arrival * 1000)), slot: start + .milliseconds(slot))
        }
        estimator.frameDrawn(at: start + .milliseconds(slot + 5))
    }

    @Test func beforeAnyMeasurementTheLeadIsTheInitialOne() {
        let estimator = ReadLeadEstimator(initial: .milliseconds(5))
        #expect(estimator.lead == .milliseconds(5))
    }

    @Test func theLeadFollowsTheLastArrivalOfRecentFramesPlusTheMargin() {
        var estimator = ReadLeadEstimator(initial: .milliseconds(5), margin: .microseconds(500), window: 10)
        for index in 0..<10 {
            // Four streams land 0.4–1.2 ms after the slot: the frame waits for the last.
            frame(&estimator, slot: 100 + 33 * index, arrivals: [0.4, 0.9, 1.2, 0.7].map { Double(100 + 33 * index) + $0 })
        }
        #expect(estimator.lead == .microseconds(1_700))
    }

    @Test func aFewSlowFramesDoNotSetTheLeadButManyDo() {
        var estimator = ReadLeadEstimator(initial: .milliseconds(5), margin: .zero, window: 10)
        for index in 0..<10 {
            // One frame in ten lands 6 ms late: the 90th percentile looks past it.
            let late = index == 3 ? 6.0 : 1.0
            frame(&estimator, slot: 33 * index, arrivals: [Double(33 * index) + late])
        }
        #expect(estimator.lead == .milliseconds(1))
        for index in 10..<20 {
            let late = index % 2 == 0 ? 6.0 : 1.0
            frame(&estimator, slot: 33 * index, arrivals: [Double(33 * index) + late])
        }
        #expect(estimator.lead == .milliseconds(6), "a busy machine lengthens the lead")
    }

    /// Frames that came in bursts (only rows on screen draw one): the slow frames of a second ago no
    /// longer set the lead, however few frames came since.
    @Test func framesOlderThanTheHorizonNoLongerCount() {
        var estimator = ReadLeadEstimator(initial: .milliseconds(5), margin: .zero, window: 30, horizon: .seconds(1))
        for index in 0..<5 {
            frame(&estimator, slot: 33 * index, arrivals: [Double(33 * index) + 6])
        }
        #expect(estimator.lead == .milliseconds(6))
        // 1.2 s later, two frames of a burst land 1 ms after their slots.
        frame(&estimator, slot: 1_300, arrivals: [1_301])
        #expect(estimator.lead == .milliseconds(1))
        frame(&estimator, slot: 1_333, arrivals: [1_334.5])
        #expect(estimator.lead == .microseconds(1_500))
    }

    @Test func theLeadStaysWithinItsBounds() {
        var fast = ReadLeadEstimator(initial: .milliseconds(5), minimum: .milliseconds(1), margin: .zero)
        frame(&fast, slot: 0, arrivals: [0.05])
        #expect(fast.lead == .milliseconds(1))
        var slow = ReadLeadEstimator(initial: .milliseconds(5), maximum: .milliseconds(10), margin: .milliseconds(2))
        frame(&slow, slot: 0, arrivals: [9.5])
        #expect(slow.lead == .milliseconds(10))
    }

    @Test func arrivalsBeforeTheSlotOrLongAfterItAreNotTheReads() {
        var estimator = ReadLeadEstimator(initial: .milliseconds(5), maximum: .milliseconds(10), margin: .zero)
        // A key before the slot, a quiet stream read at once 20 ms after it: neither measures the reads.
        frame(&estimator, slot: 100, arrivals: [99, 120])
        #expect(estimator.lead == .milliseconds(5))
        frame(&estimator, slot: 133, arrivals: [99, 135])
        #expect(estimator.lead == .milliseconds(2))
    }

    /// A change heard at `arrival` ms, the next slot at `slot` ms after `start`.
    private func heard(_ estimator: inout ReadLeadEstimator, at arrival: Double, slot: Int) {
        estimator.heard(at: start + .microseconds(Int64(arrival * 1000)), slot: start + .milliseconds(slot))
    }

    /// At 4 × 200 symbols only every other slot carried a row on screen: measured from the next slot
    /// alone, those frames' arrivals were all discarded and the few left set the lead.
    @Test func anArrivalIsMeasuredFromTheLatestSlotOfTheFrameGridBeforeIt() {
        var estimator = ReadLeadEstimator(initial: .milliseconds(5), margin: .zero, window: 10, frameInterval: .milliseconds(33))
        // The last frame at 0 with a 5 ms lead: slots at 28, 61, 94 ms. Nothing visible read at 28, the
        // prices read at 61 land 1.5 ms later.
        heard(&estimator, at: 62.5, slot: 28)
        estimator.frameDrawn(at: start + .milliseconds(66))
        #expect(estimator.lead == .microseconds(1_500))
    }

    /// A price that reached the UI after its frame had drawn, before the next slot, says how much lead it
    /// lacked: it is measured from the slot before, not discarded as early for the next.
    @Test func anArrivalThatMissedItsFrameCountsFromItsOwnSlot() {
        var estimator = ReadLeadEstimator(initial: .milliseconds(5), margin: .zero, window: 10, frameInterval: .milliseconds(33))
        // The frame drew at 0 with a lead of 2 ms (its slot at −2); a price lands at 4, before the next
        // slot at 31: it needed 6 ms.
        heard(&estimator, at: 4, slot: 31)
        estimator.frameDrawn(at: start + .milliseconds(33))
        #expect(estimator.lead == .milliseconds(6))
    }

    @Test func anArrivalManySlotsAfterTheLastFrameIsAQuietStreamReadAtOnce() {
        var estimator = ReadLeadEstimator(initial: .milliseconds(5), margin: .zero, window: 10, frameInterval: .milliseconds(33))
        // Slots every 33 ms: at 28, 61, 94; the fourth (127) is past `reach`.
        heard(&estimator, at: 28 + Double(33 * ReadLeadEstimator.reach) + 1, slot: 28)
        heard(&estimator, at: 28 - 33 - 1, slot: 28)
        estimator.frameDrawn(at: start + .milliseconds(200))
        #expect(estimator.lead == .milliseconds(5), "nothing was measured")
        heard(&estimator, at: 28 + Double(33 * (ReadLeadEstimator.reach - 1)) + 2, slot: 28)
        estimator.frameDrawn(at: start + .milliseconds(230))
        #expect(estimator.lead == .milliseconds(2))
    }

    /// Five frames in the horizon, one of them slow: the nearest-rank 90th percentile of five is the
    /// slowest, and it held the lead at 7 ms for a second.
    @Test func oneSlowFrameAmongFewDoesNotSetTheLead() {
        var estimator = ReadLeadEstimator(initial: .milliseconds(5), margin: .zero, window: 30)
        for (index, late) in [1.0, 1.2, 5.5, 0.9, 1.1].enumerated() {
            frame(&estimator, slot: 66 * index, arrivals: [Double(66 * index) + late])
        }
        #expect(estimator.lead == .microseconds(1_200))
        var three = ReadLeadEstimator(initial: .milliseconds(5), margin: .zero, window: 30)
        for (index, late) in [1.0, 5.5, 0.9].enumerated() {
            frame(&three, slot: 66 * index, arrivals: [Double(66 * index) + late])
        }
        #expect(three.lead == .microseconds(5_500), "under four frames, the slowest still counts")
    }

    /// Frames frame after frame leave the slots where they were; a frame after a pause moves them, and
    /// whoever booked reads for the old ones hears of it.
    @Test func theClockSaysWhenFramesResumeAfterAPause() {
        let clock = FrameClock(framesPerSecond: 30, lead: .milliseconds(5), origin: start)
        let resumed = Locked(0)
        clock.whenFramesResume { resumed.withLock { $0 += 1 } }
        clock.frameDrawn(at: start)
        clock.frameDrawn(at: start + clock.frameInterval)
        clock.frameDrawn(at: start + clock.frameInterval * 2 + .milliseconds(10))
        #expect(resumed.withLock { $0 } == 0, "a frame up to half an interval late is no pause")
        clock.frameDrawn(at: start + .milliseconds(800))
        #expect(resumed.withLock { $0 } == 1)
    }

    @Test func theClockTakesTheMeasuredLeadForItsSlots() {
        let clock = FrameClock(framesPerSecond: 30, lead: .milliseconds(5), origin: start)
        #expect(clock.currentSlot == nil)
        clock.frameDrawn(at: start)
        #expect(clock.currentSlot == start + clock.frameInterval - .milliseconds(5))
        clock.setLead(.milliseconds(2))
        #expect(clock.lead == .milliseconds(2))
        #expect(clock.currentSlot == start + clock.frameInterval - .milliseconds(2))
        #expect(clock.readSlot(lastRead: start + .milliseconds(1), now: start + .milliseconds(2)) == start + clock.frameInterval - .milliseconds(2))
        // Never more than half a frame: the reads would otherwise come before the frame they follow.
        clock.setLead(.seconds(1))
        #expect(clock.lead <= clock.frameInterval / 2 && clock.lead > clock.frameInterval / 2 - .microseconds(1))
    }
}
