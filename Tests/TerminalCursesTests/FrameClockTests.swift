import TerminalKit
import Testing

/// The read slots streams use to read once per frame, just before it (FrameClock.readSlot).
@Suite struct FrameClockTests {
    private let start = ContinuousClock.Instant.now
    private let interval = Duration.milliseconds(30)
    private let lead = Duration.milliseconds(5)

    private func slot(lastFrame: Duration?, lastRead: Duration?, lastSlot: Duration? = nil, now: Duration) -> Duration? {
        FrameClock.readSlot(
            lastFrame: lastFrame.map { start + $0 }, frameInterval: interval, lead: lead,
            lastRead: lastRead.map { start + $0 }, lastSlot: lastSlot.map { start + $0 }, now: start + now
        ).map { start.duration(to: $0) }
    }

    @Test func beforeAnyFrameOrReadEveryMessageIsReadAtOnce() {
        #expect(slot(lastFrame: nil, lastRead: .milliseconds(1), now: .milliseconds(2)) == nil)
        #expect(slot(lastFrame: .zero, lastRead: nil, now: .milliseconds(2)) == nil)
    }

    @Test func aReadAfterAFrameWaitsForTheSlotBeforeTheNextFrame() {
        // Frame at 0, read at 1 ms: the next read goes at 30 − 5 = 25 ms.
        #expect(slot(lastFrame: .zero, lastRead: .milliseconds(1), now: .milliseconds(2)) == .milliseconds(25))
    }

    @Test func aReadInTheSlotWaitsForTheFollowingOne() {
        // Read at 26 ms, in the lead before the frame at 30 that has not drawn yet: next at 55 ms.
        #expect(slot(lastFrame: .zero, lastRead: .milliseconds(26), now: .milliseconds(27)) == .milliseconds(55))
        // Once that frame drew (at 31 ms, a little late), the slots follow it.
        #expect(slot(lastFrame: .milliseconds(31), lastRead: .milliseconds(26), now: .milliseconds(32)) == .milliseconds(56))
    }

    @Test func aFrameThatDrewLateDoesNotBringASecondReadForTheNextOne() {
        // Frames at 0 and (due) 30: the reader, before 30 drew, waited for the slot 55 of the frame at 60
        // and read there at 55.3 ms. The frame "at 30" then turned out to have drawn at 31.5, so the
        // frame at 60 is now due at 61.5 and its slot at 56.5, after that read: it is the slot already
        // read, and the next read goes at 86.5, for the frame after.
        #expect(slot(lastFrame: .microseconds(31_500), lastRead: .microseconds(55_300), lastSlot: .milliseconds(55), now: .microseconds(55_400))
            == .microseconds(86_500))
        // Without the slot it read at, the reader would read again at 56.5.
        #expect(slot(lastFrame: .microseconds(31_500), lastRead: .microseconds(55_300), now: .microseconds(55_400)) == .microseconds(56_500))
        // A slot read long ago changes nothing: the slots follow the frames and the last read.
        #expect(slot(lastFrame: .zero, lastRead: .milliseconds(1), lastSlot: .milliseconds(-200), now: .milliseconds(2)) == .milliseconds(25))
        // After a quiet spell the message is still read at once, whenever the last slot read was.
        #expect(slot(lastFrame: .zero, lastRead: .milliseconds(500), lastSlot: .milliseconds(-5), now: .milliseconds(530)) == nil)
    }

    @Test func afterAQuietSpellTheFirstMessageIsReadAtOnce() {
        // Nothing read for a second and the last frame long ago: the next frame would draw at once.
        #expect(slot(lastFrame: .zero, lastRead: .milliseconds(2), now: .seconds(1)) == nil)
        // The slot after a read long ago is already past.
        #expect(slot(lastFrame: .zero, lastRead: .milliseconds(500), now: .milliseconds(530)) == nil)
    }

    @Test func aSlotStillAheadHoldsEvenLongAfterTheLastFrame() {
        // Frames stopped at 0 (nothing changed on screen); read at 500 ms: the next slot after it is
        // 505 ms (0 + 17 · 30 − 5), so a message at 501 waits for it.
        #expect(slot(lastFrame: .zero, lastRead: .milliseconds(500), now: .milliseconds(501)) == .milliseconds(505))
    }

    @Test func thePublishedFrameIsWhatTheSlotsFollow() {
        let clock = FrameClock(framesPerSecond: 20, lead: .milliseconds(10), origin: start)
        #expect(clock.lastFrame == nil)
        #expect(clock.readSlot(lastRead: start, now: start) == nil)
        clock.frameDrawn(at: start + .milliseconds(100))
        #expect(clock.lastFrame == start + .milliseconds(100))
        #expect(clock.readSlot(lastRead: start + .milliseconds(101), now: start + .milliseconds(102)) == start + .milliseconds(140))
    }
}
