import Domain

/// The three fake brokers of demo mode. Ids are stable: they key rows and persisted state.
public enum DemoBrokerCatalog {
    public static let alpha = ServiceBranding(id: "demo-alpha", name: "Alpha Demo", glyph: "α", color: .cyan)
    public static let beta = ServiceBranding(id: "demo-beta", name: "Beta Demo", glyph: "β", color: .magenta)
    /// The flaky one: its stream drops every so often and it rejects `DemoBrokerCatalog.flakyRejects`.
    public static let gamma = ServiceBranding(id: "demo-gamma", name: "Gamma Flaky", glyph: "γ", color: .yellow)

    public static let all = [alpha, beta, gamma]

    /// Symbols the flaky broker answers with "unknown symbol", so errors are visible in the demo.
    public static let flakyRejects: Set<String> = ["ZZZZ", "XXX", "TEST"]
}
