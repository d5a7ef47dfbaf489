import Domain

extension Result where Failure == BrokerError {
    /// The outcome of `body` as a value: what a `Service` box returns for a broker call.
    static func of(_ body: () async throws(BrokerError) -> Success) async -> Result<Success, BrokerError> {
        do throws(BrokerError) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
