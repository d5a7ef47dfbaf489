extension AppConfig {
    /// Which of a broker's servers to talk to. Brokers without a sandbox accept only `production`.
    public enum BrokerEnvironment: String, Sendable, Hashable, CaseIterable {
        case production
        case sandbox
    }
}
