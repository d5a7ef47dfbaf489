/// The options shared by the interactive app and `print`.
public struct RunOptions: Sendable, Equatable {
    /// Use only the built-in demo brokers.
    public var demo: Bool
    /// `--config PATH`, exactly as given (`AppPaths` expands a leading `~`).
    public var configPath: String?
    /// `--symbols`, normalized and without duplicates; `nil` when not given.
    public var symbols: [String]?
    public var noColor: Bool

    public init(demo: Bool = false, configPath: String? = nil, symbols: [String]? = nil, noColor: Bool = false) {
        self.demo = demo
        self.configPath = configPath
        self.symbols = symbols
        self.noColor = noColor
    }
}
