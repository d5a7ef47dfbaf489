import TestSupport

struct TimedOut: Error, CustomStringConvertible {
    let waitingFor: String
    var description: String { "timed out waiting for \(waitingFor)" }
}

/// Awaits `body` for a value, failing after `seconds` (scaled by `TestTime`) instead of hanging the test
/// run. Only for things that happen on other tasks; nothing here waits for time to pass.
@discardableResult
func withTimeout<T: Sendable>(
    _ waitingFor: String, seconds: Double = 5, _ body: @escaping @Sendable () async throws -> T?
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: TestTime.scaled(.seconds(seconds)))
            throw TimedOut(waitingFor: waitingFor)
        }
        defer { group.cancelAll() }
        guard let value = try await group.next()! else { throw TimedOut(waitingFor: waitingFor + " (stream ended)") }
        return value
    }
}
