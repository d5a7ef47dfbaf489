import Testing
@testable import CommonBrokerApp

@Suite struct AppPathsTests {
    private func resolve(_ environment: [String: String], config option: String? = nil) -> Result<AppPaths, AppPathsError> {
        AppPaths.resolve(configOption: option, environment: environment)
    }

    @Test func homeDefaults() throws {
        let paths = try resolve(["HOME": "/home/ann"]).get()
        #expect(paths == AppPaths(
            configFile: "/home/ann/.config/commonbroker/config.json", configFileIsExplicit: false,
            stateDirectory: "/home/ann/.local/state/commonbroker"
        ))
    }

    @Test func xdgDirectoriesWinOverHome() throws {
        let paths = try resolve(["HOME": "/home/ann", "XDG_CONFIG_HOME": "/cfg/", "XDG_STATE_HOME": "/var/state"]).get()
        #expect(paths.configFile == "/cfg/commonbroker/config.json")
        #expect(paths.stateDirectory == "/var/state/commonbroker")
        #expect(!paths.configFileIsExplicit)
    }

    @Test func relativeOrEmptyXDGValuesAreIgnored() throws {
        let paths = try resolve(["HOME": "/home/ann", "XDG_CONFIG_HOME": "relative/cfg", "XDG_STATE_HOME": ""]).get()
        #expect(paths.configFile == "/home/ann/.config/commonbroker/config.json")
        #expect(paths.stateDirectory == "/home/ann/.local/state/commonbroker")
    }

    @Test func rootDirectoriesDoNotDoubleTheSlash() throws {
        let paths = try resolve(["HOME": "/", "XDG_STATE_HOME": "/"]).get()
        #expect(paths.configFile == "/.config/commonbroker/config.json")
        #expect(paths.stateDirectory == "/commonbroker")
    }

    @Test func explicitConfigOptionWinsAndIsMarked() throws {
        let env = ["HOME": "/home/ann", "XDG_CONFIG_HOME": "/cfg"]
        #expect(try resolve(env, config: "my.json").get().configFile == "my.json")
        #expect(try resolve(env, config: "my.json").get().configFileIsExplicit)
        #expect(try resolve(env, config: "~/work/cb.json").get().configFile == "/home/ann/work/cb.json")
        #expect(try resolve(env, config: "~").get().configFile == "/home/ann")
        #expect(try resolve(env, config: "~other/cb.json").get().configFile == "~other/cb.json")
        // With no HOME, a tilde stays as typed and the state directory still needs a home.
        #expect(try resolve(["XDG_STATE_HOME": "/s"], config: "~/cb.json").get().configFile == "~/cb.json")
    }

    @Test func missingHomeIsAnErrorOnlyWhenNeeded() throws {
        #expect(resolve([:]).failureValue == .homeNotSet(locating: .configFile))
        #expect(resolve(["HOME": "relative"]).failureValue == .homeNotSet(locating: .configFile))
        #expect(resolve([:], config: "/etc/cb.json").failureValue == .homeNotSet(locating: .stateDirectory))
        #expect(try resolve(["XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s"]).get().stateDirectory == "/s/commonbroker")
        #expect(AppPathsError.homeNotSet(locating: .configFile).description.contains("pass --config PATH"))
        #expect(AppPathsError.homeNotSet(locating: .stateDirectory).description.contains("XDG_STATE_HOME"))
    }
}
