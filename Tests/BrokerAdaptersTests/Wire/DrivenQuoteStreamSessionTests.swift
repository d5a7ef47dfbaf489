import Domain
import Locking
import Testing
@testable import BrokerAdapters

@Suite struct DrivenQuoteStreamSessionTests {
    /// Records what the session forwards and when its driver stopped.
    final class Recorder: DrivenQuoteStreamConnection {
        private let log = Locked<[String]>([])
        let continuation: QuoteEvents.Continuation

        init(_ continuation: QuoteEvents.Continuation) { self.continuation = continuation }

        var calls: [String] { log.withLock { $0 } }
        func record(_ call: String) { log.withLock { $0.append(call) } }
        func subscribe(_ symbols: Set<String>) { record("subscribe \(symbols.sorted())") }
        func unsubscribe(_ symbols: Set<String>) { record("unsubscribe \(symbols.sorted())") }
        func close() {
            record("close")
            continuation.finish()
        }
    }

    /// A driver that runs until its task is cancelled, then says so.
    @Sendable static func driveUntilCancelled(_ recorder: Recorder) async {
        for await _ in AsyncStream<Void>(unfolding: { try? await Task.sleep(for: .seconds(3600)) }) {
            if Task.isCancelled { break }
        }
        recorder.record("driver stopped")
    }

    @Test func closeForwardsAndReturnsOnceTheDriverHasStopped() async throws {
        var recorder: Recorder?
        let session = DrivenQuoteStreamSession(
            connect: { continuation in
                continuation.yield(.live)
                let made = Recorder(continuation)
                recorder = made
                return made
            },
            drive: Self.driveUntilCancelled
        )
        var events = session.events.makeAsyncIterator()
        #expect(try await events.next() == .live)
        await session.subscribe(["MSFT", "AAPL"])
        await session.unsubscribe(["MSFT"])
        await session.close()
        #expect(try await events.next() == nil)
        #expect(recorder?.calls == [#"subscribe ["AAPL", "MSFT"]"#, #"unsubscribe ["MSFT"]"#, "close", "driver stopped"])
    }
}
