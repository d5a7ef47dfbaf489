import Domain

/// How the restart scenario (`LiveStreamRestart`) reads one broker's stream fixture server: through the
/// broker's stream service, or over a bare socket that speaks the wire by hand.
protocol LiveStreamClient {
    /// Reads until every symbol in `symbols` has `count` trade prices, and returns the first `count` of
    /// each. Throws when the stream ends first.
    func prices(each symbols: Set<String>, count: Int) async throws -> [String: [ExactDecimal]]

    /// Awaits how the stream ends once its server has stopped, and checks the end is what a caller should
    /// see; throws when it is not.
    func expectEndOnceServerStopped() async throws

    func close() async
}
