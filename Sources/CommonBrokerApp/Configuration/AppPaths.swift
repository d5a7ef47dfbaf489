/// Where the config file and the state directory are, worked out from the command line and the
/// environment alone (no file system access), following the XDG Base Directory specification.
public struct AppPaths: Sendable, Equatable {
    public let configFile: String
    /// `true` when the user named the file with `--config`: then a missing file is an error, while
    /// a missing default file just means "use the defaults".
    public let configFileIsExplicit: Bool
    /// Holds the watchlist as edited in the app.
    public let stateDirectory: String

    public static let directoryName = "commonbroker"
    public static let configFileName = "config.json"

    public init(configFile: String, configFileIsExplicit: Bool, stateDirectory: String) {
        self.configFile = configFile
        self.configFileIsExplicit = configFileIsExplicit
        self.stateDirectory = stateDirectory
    }

    /// Config: `configOption` (with a leading `~` expanded, since the shell does not expand it in
    /// `--config=~/x`), else `$XDG_CONFIG_HOME/commonbroker/config.json`, else
    /// `$HOME/.config/commonbroker/config.json`. State: `$XDG_STATE_HOME/commonbroker`, else
    /// `$HOME/.local/state/commonbroker`. Relative XDG values are ignored, as the specification says.
    public static func resolve(configOption: String?, environment: [String: String]) -> Result<AppPaths, AppPathsError> {
        let home = absolute(environment["HOME"])

        let configFile: String
        if let option = configOption {
            configFile = expandingTilde(in: option, home: home)
        } else if let base = absolute(environment["XDG_CONFIG_HOME"]) {
            configFile = join(base, directoryName, configFileName)
        } else if let home {
            configFile = join(home, ".config", directoryName, configFileName)
        } else {
            return .failure(.homeNotSet(locating: .configFile))
        }

        let stateDirectory: String
        if let base = absolute(environment["XDG_STATE_HOME"]) {
            stateDirectory = join(base, directoryName)
        } else if let home {
            stateDirectory = join(home, ".local", "state", directoryName)
        } else {
            return .failure(.homeNotSet(locating: .stateDirectory))
        }

        return .success(AppPaths(configFile: configFile, configFileIsExplicit: configOption != nil, stateDirectory: stateDirectory))
    }

    /// The value without trailing slashes, if it is an absolute path.
    private static func absolute(_ value: String?) -> String? {
        guard var path = value, path.hasPrefix("/") else { return nil }
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    private static func join(_ base: String, _ components: String...) -> String {
        ([base == "/" ? "" : base] + components).joined(separator: "/")
    }

    private static func expandingTilde(in path: String, home: String?) -> String {
        guard let home else { return path }
        if path == "~" { return home }
        if path.hasPrefix("~/") { return join(home, String(path.dropFirst(2))) }
        return path
    }
}
