import Domain

/// Runs one request per item with at most `limit` in flight, for APIs that need several requests for one
/// answer (batches of symbols, one request per symbol or account). Every item gets its own result, in
/// the items' order, so one failure never hides the others' answers.
public enum BoundedConcurrency {
    public static func results<Item: Sendable, Output: Sendable>(
        for items: [Item], limit: Int,
        _ operation: @escaping @Sendable (Item) async throws(BrokerError) -> Output
    ) async -> [Result<Output, BrokerError>] {
        var results = [Result<Output, BrokerError>?](repeating: nil, count: items.count)
        await withTaskGroup(of: (Int, Result<Output, BrokerError>).self) { group in
            var next = 0
            func startNext() {
                guard next < items.count else { return }
                let index = next
                let item = items[index]
                next += 1
                group.addTask {
                    do throws(BrokerError) {
                        return (index, .success(try await operation(item)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            for _ in 0..<max(1, limit) { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                startNext()
            }
        }
        // Every index was filled: each task returns exactly once.
        return results.map { $0 ?? .failure(.cancelled) }
    }
}
