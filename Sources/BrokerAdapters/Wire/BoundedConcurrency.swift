import Domain

/// Runs one request per item with at most `limit` in flight, for APIs that need several requests for one
/// answer (batches of symbols, one request per symbol or account). Every item gets its own result, in
/// the items' order, so one failure never hides the others' answers.
public enum BoundedConcurrency {
    /// `endsBatch` says a failure holds for every item (a rejected key, a hit rate limit): items not
    /// started yet then get that failure without being run, so they spend none of the provider's quota.
    /// Once the calling task is cancelled, items not started yet get `.cancelled` the same way.
    public static func results<Item: Sendable, Output: Sendable>(
        for items: [Item], limit: Int,
        endsBatch: (BrokerError) -> Bool = { _ in false },
        _ operation: @escaping @Sendable (Item) async throws(BrokerError) -> Output
    ) async -> [Result<Output, BrokerError>] {
        var results = [Result<Output, BrokerError>?](repeating: nil, count: items.count)
        var batchFailure: BrokerError?
        await withTaskGroup(of: (Int, Result<Output, BrokerError>).self) { group in
            var next = 0
            func startNext() {
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
            while next < items.count, next < max(1, limit) { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                if batchFailure == nil, case .failure(let error) = result, endsBatch(error) { batchFailure = error }
                if batchFailure == nil, next < items.count, !Task.isCancelled { startNext() }
            }
        }
        // Each started task returns exactly once; only items never started are still empty.
        return results.map { $0 ?? .failure(batchFailure ?? .cancelled) }
    }
}
