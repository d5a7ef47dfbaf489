import TerminalKit
import Foundation
import Testing
@testable import TerminalCurses
#if canImport(Glibc)
import Glibc
#endif

@Suite struct TerminalSessionTests {
    private func makeSession() -> TerminalSession {
        TerminalSession(
            options: TerminalSessionOptions(),
            frame: { size, _ in ScreenBuffer(size: size) },
            onKey: { _ in },
            onResize: { _ in }
        )
    }

    /// Under `swift test` output usually goes to a pipe; when run from a terminal this cannot be checked.
    @Test(.enabled(if: isatty(STDIN_FILENO) == 0 || isatty(STDOUT_FILENO) == 0))
    func refusesToStartWithoutATerminal() {
        let session = makeSession()
        #expect(throws: TerminalError.notATerminal(term: ProcessInfo.processInfo.environment["TERM"])) {
            try session.start()
        }
    }

    @Test func errorsNameTheTerminalAndWhatToDo() {
        #expect(TerminalError.notATerminal(term: nil).description.hasPrefix("commonbroker needs a terminal (TERM=unset)"))
        #expect(TerminalError.unsupportedTerminal(term: "bogus").description.contains("TERM=bogus"))
        #expect(TerminalError.unsupportedTerminal(term: "bogus").description.contains("TERM=xterm-256color"))
    }

    @Test func stoppingAnUnstartedSessionEndsItAndIsIdempotent() async {
        let session = makeSession()
        session.setNeedsDisplay()
        session.stop()
        session.stop()
        #expect(await session.waitUntilStopped() == .stopped)
        #expect(throws: TerminalError.alreadyStarted) { try session.start() }
    }

    @Test func aCancelledWaitReturnsWithoutEndingTheSession() async {
        let session = makeSession()
        let cancelled = Task { await session.waitUntilStopped() }
        cancelled.cancel()
        #expect(await cancelled.value == .stopped)
        // Not ended by the cancellation: stop() is what ends it, and waiters registered later hear it.
        let waiting = Task { await session.waitUntilStopped() }
        session.stop()
        #expect(await waiting.value == .stopped)
    }

    @Test func defaultOptions() {
        let options = TerminalSessionOptions()
        #expect(options.color)
        #expect(options.maxFramesPerSecond == 30)
        #expect(options.idleRedrawInterval == .milliseconds(500))
    }
}
