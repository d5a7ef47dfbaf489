/// Why `AppPaths.resolve` could not find a place for a file.
public enum AppPathsError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Location: Sendable, Equatable {
        case configFile
        case stateDirectory
    }

    /// Neither the XDG variable nor an absolute `HOME` is set.
    case homeNotSet(locating: Location)

    public var description: String {
        switch self {
        case .homeNotSet(.configFile):
            "cannot find the config file: HOME is not set; set HOME or XDG_CONFIG_HOME to an absolute path, "
                + "or pass --config PATH"
        case .homeNotSet(.stateDirectory):
            "cannot find the state directory: HOME is not set; set HOME or XDG_STATE_HOME to an absolute path"
        }
    }
}
