import Foundation

/// How much longer the tests' wall-clock limits are in this run: the one place that reads
/// `COMMONBROKER_TEST_TIME_SCALE`.
///
/// A limit on real time (how long to wait for a screen, a socket's answer, a process's exit; a timeout
/// handed to the code under test that must not fire) holds on an idle machine and in `make test`, but
/// ThreadSanitizer runs the same code 5 to 15 times slower, and `make test-tsan` on a busy 2-core
/// machine pushed tests over a 3 s WebSocket upgrade and a 10 s bus wait. `make test-tsan` sets the
/// scale (5); unset, it is 1 and every limit is what its test says. Scaling makes a failing wait fail
/// later, never pass: what a test asserts stays the same. Not for timeouts a test expects to fire
/// (a 300 ms handshake timeout against a server that never answers), nor for lower bounds.
public enum TestTime {
    public static let variable = "COMMONBROKER_TEST_TIME_SCALE"

    /// The factor every wall-clock limit is multiplied by; 1 unless the environment says otherwise.
    public static let scale: Int = {
        do {
            return try parse(ProcessInfo.processInfo.environment[variable])
        } catch {
            fatalError("\(error)")
        }
    }()

    public struct InvalidScale: Error, CustomStringConvertible {
        public let text: String
        public var description: String {
            "\(TestTime.variable)=\(text) is not a whole number from 1 to 100: set it to how many times longer tests may wait (make test-tsan sets 5), or unset it"
        }
    }

    /// The scale `text` (the variable's value) asks for: 1 when unset or empty.
    public static func parse(_ text: String?) throws(InvalidScale) -> Int {
        guard let text, !text.isEmpty else { return 1 }
        guard let scale = Int(text), (1...100).contains(scale) else { throw InvalidScale(text: text) }
        return scale
    }

    /// `limit`, stretched by the run's scale.
    public static func scaled(_ limit: Duration) -> Duration { limit * scale }

    /// `seconds`, stretched by the run's scale (for `Date`- and `TimeInterval`-based waits).
    public static func scaled(_ seconds: TimeInterval) -> TimeInterval { seconds * Double(scale) }

    /// The stream fixture server's `--auth-timeout` argument: the real brokers' 10 s to authenticate,
    /// stretched by the run's scale. Under TSan on a loaded machine a second connection's auth took longer
    /// than 10 s to reach the server, which then answered `auth_timeout` instead of what the test asked.
    public static var streamFixtureAuthTimeout: [String] { ["--auth-timeout", String(Int(scaled(10.0)))] }
}
