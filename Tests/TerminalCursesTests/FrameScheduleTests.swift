import TerminalKit
import Testing
@testable import TerminalCurses

@Suite struct FrameScheduleTests {
    private let start = ContinuousClock.Instant.now

    @Test func theFirstFrameIsDueAtOnce() {
        let schedule = FrameSchedule(maxFramesPerSecond: 30, idleInterval: .milliseconds(500))
        #expect(schedule.isDue(at: start))
        #expect(schedule.pollTimeout(at: start) == 0)
    }

    @Test func redrawRequestsWaitForTheFrameCap() {
        var schedule = FrameSchedule(maxFramesPerSecond: 20, idleInterval: .milliseconds(500))
        schedule.didDraw(at: start)
        schedule.setNeedsDisplay()
        #expect(!schedule.isDue(at: start + .milliseconds(10)))
        #expect(schedule.pollTimeout(at: start + .milliseconds(10)) == 40)
        #expect(schedule.isDue(at: start + .milliseconds(50)))
    }

    @Test func aTimedRedrawThatWritesNothingDoesNotHoldBackTheNextChange() {
        var schedule = FrameSchedule(maxFramesPerSecond: 30, idleInterval: .milliseconds(500))
        schedule.didDraw(at: start)
        // The tick comes well after the last frame: due at once, like a change.
        schedule.setNeedsTimedRedraw()
        #expect(schedule.isDue(at: start + .milliseconds(100)))
        schedule.didDraw(at: start + .milliseconds(100), changedTerminal: false)
        #expect(schedule.lastFrame == start, "a redraw for time that wrote nothing does not count for the cap")
        // A price a millisecond later is drawn at once, not 33 ms after the tick's frame.
        schedule.setNeedsDisplay()
        #expect(schedule.isDue(at: start + .milliseconds(101)))
    }

    @Test func aTimedRedrawThatWroteCountsForTheCapAndWaitsForIt() {
        var schedule = FrameSchedule(maxFramesPerSecond: 30, idleInterval: .milliseconds(500))
        schedule.didDraw(at: start)
        schedule.setNeedsTimedRedraw()
        #expect(!schedule.isDue(at: start + .milliseconds(10)), "capped like any frame")
        #expect(schedule.isDue(at: start + .milliseconds(34)))
        schedule.didDraw(at: start + .milliseconds(34), changedTerminal: true)
        #expect(schedule.lastFrame == start + .milliseconds(34))
        schedule.setNeedsDisplay()
        #expect(!schedule.isDue(at: start + .milliseconds(40)))
    }

    /// With paced streams, the tick's frame waits for the frames' grid, where the streams' reads come;
    /// a change asked meanwhile is still drawn at once, and is heard.
    @Test func aTimedRedrawWithPacedStreamsWaitsForTheGridButAChangeDoesNot() {
        var schedule = FrameSchedule(minimumInterval: .milliseconds(30), idleInterval: .milliseconds(500), alignsTimedRedraws: true)
        schedule.didDraw(at: start)
        schedule.setNeedsTimedRedraw(at: start + .milliseconds(100))
        #expect(!schedule.isDue(at: start + .milliseconds(100)))
        #expect(schedule.nextFrame == start + .milliseconds(120))
        #expect(!schedule.mayIgnoreRequests(at: start + .milliseconds(100)), "a change may be due sooner")
        schedule.setNeedsDisplay()
        #expect(schedule.isDue(at: start + .milliseconds(101)))
        schedule.didDraw(at: start + .milliseconds(101))
        // The next tick, a hair after a grid point: that point.
        schedule.setNeedsTimedRedraw(at: start + .milliseconds(161) + .microseconds(100))
        #expect(schedule.nextFrame == start + .milliseconds(161))
        // Without paced streams, at once (after the cap), as before.
        var plain = FrameSchedule(minimumInterval: .milliseconds(30), idleInterval: .milliseconds(500))
        plain.didDraw(at: start)
        plain.setNeedsTimedRedraw(at: start + .milliseconds(100))
        #expect(plain.isDue(at: start + .milliseconds(100)))
    }

    @Test func aChangeThatWritesNothingStillCountsForTheCap() {
        var schedule = FrameSchedule(maxFramesPerSecond: 30, idleInterval: .milliseconds(500))
        schedule.didDraw(at: start)
        schedule.setNeedsDisplay()
        schedule.didDraw(at: start + .milliseconds(40), changedTerminal: false)
        #expect(schedule.lastFrame == start + .milliseconds(40), "prices of rows off screen compose no extra frames")
    }

    @Test func withoutRequestsTheIdleIntervalRedraws() {
        var schedule = FrameSchedule(maxFramesPerSecond: 30, idleInterval: .milliseconds(500))
        schedule.didDraw(at: start)
        #expect(!schedule.isDue(at: start + .milliseconds(100)))
        #expect(schedule.pollTimeout(at: start + .milliseconds(100)) == 400)
        #expect(schedule.isDue(at: start + .milliseconds(500)))
    }

    @Test func timeoutsRoundDownAndTheLastFractionIsSleptApart() {
        var schedule = FrameSchedule(maxFramesPerSecond: 30, idleInterval: .milliseconds(500))
        schedule.didDraw(at: start)
        #expect(schedule.pollTimeout(at: start + .microseconds(100_500)) == 399)
        #expect(schedule.finalFraction(at: start + .microseconds(100_500)) == nil, "poll(2) can wait for most of it")
        #expect(schedule.pollTimeout(at: start + .microseconds(499_400)) == 0)
        #expect(schedule.finalFraction(at: start + .microseconds(499_400)) == .microseconds(600))
        #expect(schedule.finalFraction(at: start + .milliseconds(500)) == nil, "due: nothing to wait for")
    }

    @Test func aCappedFrameIsNotRoundedToTheNextMillisecond() throws {
        var schedule = FrameSchedule(maxFramesPerSecond: 30, idleInterval: .milliseconds(500))
        schedule.didDraw(at: start)
        schedule.setNeedsDisplay()
        // 33.333 ms: 33 in poll(2), then the last third of a millisecond.
        #expect(schedule.pollTimeout(at: start) == 33)
        let fraction = try #require(schedule.finalFraction(at: start + .milliseconds(33)))
        #expect(fraction > .microseconds(333) && fraction < .microseconds(334))
    }

    @Test func noIdleIntervalWaitsForEvents() {
        var schedule = FrameSchedule(maxFramesPerSecond: 30, idleInterval: .zero)
        schedule.didDraw(at: start)
        #expect(schedule.pollTimeout(at: start + .seconds(60)) == -1)
        #expect(!schedule.isDue(at: start + .seconds(60)))
    }

    @Test func aZeroFrameRateIsTreatedAsOne() {
        var schedule = FrameSchedule(maxFramesPerSecond: 0, idleInterval: .zero)
        schedule.didDraw(at: start)
        schedule.setNeedsDisplay()
        #expect(schedule.pollTimeout(at: start) == 1000)
    }

    @Test func anIdleRedrawThatChangedNothingDoesNotHoldBackTheNextFrame() {
        var schedule = FrameSchedule(maxFramesPerSecond: 30, idleInterval: .milliseconds(500))
        schedule.didDraw(at: start)
        schedule.didDraw(at: start + .milliseconds(500), changedTerminal: false)
        schedule.setNeedsDisplay()
        #expect(schedule.isDue(at: start + .milliseconds(501)))
        // The idle interval still counts from the frame composed last.
        schedule.didDraw(at: start + .milliseconds(501))
        #expect(schedule.pollTimeout(at: start + .milliseconds(501)) == 500)
    }

    @Test func anIdleRedrawThatChangedCellsHoldsBackTheNextFrame() {
        var schedule = FrameSchedule(maxFramesPerSecond: 30, idleInterval: .milliseconds(500))
        schedule.didDraw(at: start)
        schedule.didDraw(at: start + .milliseconds(500), changedTerminal: true)
        schedule.setNeedsDisplay()
        #expect(!schedule.isDue(at: start + .milliseconds(510)))
        #expect(schedule.isDue(at: start + .milliseconds(534)))
    }

    @Test func aRequestedFrameThatChangedNothingStillCountsForTheCap() {
        // Otherwise quotes of rows off screen would compose a frame on every wake-up.
        var schedule = FrameSchedule(maxFramesPerSecond: 30, idleInterval: .milliseconds(500))
        schedule.didDraw(at: start)
        schedule.setNeedsDisplay()
        schedule.didDraw(at: start + .milliseconds(40), changedTerminal: false)
        schedule.setNeedsDisplay()
        #expect(!schedule.isDue(at: start + .milliseconds(50)))
        #expect(schedule.isDue(at: start + .milliseconds(74)))
    }

    @Test func requestsMayBeLeftForAFrameThatIsBookedButHeldByTheCap() {
        var schedule = FrameSchedule(maxFramesPerSecond: 30, idleInterval: .milliseconds(500))
        #expect(!schedule.mayIgnoreRequests(at: start), "before the first frame")
        schedule.didDraw(at: start)
        #expect(!schedule.mayIgnoreRequests(at: start + .milliseconds(5)), "nothing booked: a request must wake the loop")
        schedule.setNeedsDisplay()
        #expect(schedule.mayIgnoreRequests(at: start + .milliseconds(5)), "the frame at 33 ms will look at them")
        #expect(!schedule.mayIgnoreRequests(at: start + .milliseconds(34)), "due: it is drawn now")
        schedule.didDraw(at: start + .milliseconds(34))
        schedule.setNeedsTimedRedraw()
        #expect(schedule.mayIgnoreRequests(at: start + .milliseconds(40)), "a frame for time passing is booked too")
    }

    @Test func aFrameDrawnOnTimeCountsFromWhenItWasDueSoFramesKeepTheirCadence() {
        var schedule = FrameSchedule(minimumInterval: .milliseconds(40), idleInterval: .milliseconds(500))
        schedule.didDraw(at: start)
        schedule.setNeedsDisplay()
        // Due at 40 ms; the loop woke at 40.3: the frame counts from 40, and the next is due at 80.
        #expect(schedule.frameTime(startingAt: start + .microseconds(40_300), wokeForIt: true) == start + .milliseconds(40))
        schedule.didDraw(at: schedule.frameTime(startingAt: start + .microseconds(40_300), wokeForIt: true))
        schedule.setNeedsDisplay()
        #expect(schedule.nextFrame == start + .milliseconds(80))
        // Woken 15 ms late (over a quarter of the interval): it counts from when it started.
        #expect(schedule.frameTime(startingAt: start + .milliseconds(95), wokeForIt: true) == start + .milliseconds(95))
        // Nothing booked, or drawn before it was due (a resize): from when it started.
        var idle = FrameSchedule(minimumInterval: .milliseconds(40), idleInterval: .milliseconds(500))
        idle.didDraw(at: start)
        #expect(idle.frameTime(startingAt: start + .milliseconds(45), wokeForIt: true) == start + .milliseconds(45))
        #expect(schedule.frameTime(startingAt: start + .milliseconds(60), wokeForIt: true) == start + .milliseconds(60))
    }

    @Test func aFrameThatAnEventWokeCountsFromWhenItStartedSoTheCapHolds() {
        var schedule = FrameSchedule(minimumInterval: .milliseconds(40), idleInterval: .milliseconds(500))
        schedule.didDraw(at: start)
        // Nothing booked until a price comes at 48 ms, 8 ms after the cap allowed the next frame: it is drawn
        // at once. Counted from 40, the frame after could come at 80, 32 ms after this one.
        schedule.setNeedsDisplay()
        let woken = start + .milliseconds(48)
        #expect(schedule.isDue(at: woken))
        let frameTime = schedule.frameTime(startingAt: woken, wokeForIt: false)
        #expect(frameTime == woken)
        schedule.didDraw(at: frameTime)
        schedule.setNeedsDisplay()
        #expect(schedule.nextFrame == start + .milliseconds(88))
    }
}
