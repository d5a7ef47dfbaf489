import Dispatch
import Foundation

/// SIGTERM and SIGINT, turned into one awaitable stop: `relay` and `print --follow` end cleanly on either.
/// From its creation both signals only reach it (their default action, ending the process, is off), so a
/// second Ctrl-C while shutting down does not kill the process halfway.
final class SignalStop {
    private let stream: AsyncStream<Void>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.stream = stream
        sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield() }
            source.resume()
            return source
        }
    }

    func wait() async {
        for await _ in stream { return }
    }
}
