/// The options shared by the interactive app and `print`.
public struct RunOptions: Sendable, Equatable {
    /// Use only the built-in demo brokers.
    public var demo: Bool
    /// `--config PATH`, exactly as given (`AppPaths` expands a leading `~`).
    public var configPath: String?
    /// `--symbols`, normalized and without duplicates; `nil` when not given.
    public var symbols: [String]?
    public var noColor: Bool
    /// `--env production|sandbox`: every real broker talks to that deployment (overrides the config).
    public var environment: String?
    /// `--record DIR`: every HTTP exchange is also written to DIR, secrets redacted.
    public var recordDirectory: String?
    /// `--replay DIR`: answers come from recordings in DIR instead of the network.
    public var replayDirectory: String?

    public init(
        demo: Bool = false, configPath: String? = nil, symbols: [String]? = nil, noColor: Bool = false,
        environment: String? = nil, recordDirectory: String? = nil, replayDirectory: String? = nil
    ) {
        self.demo = demo
        self.configPath = configPath
        self.symbols = symbols
        self.noColor = noColor
        self.environment = environment
        self.recordDirectory = recordDirectory
        self.replayDirectory = replayDirectory
    }
}
