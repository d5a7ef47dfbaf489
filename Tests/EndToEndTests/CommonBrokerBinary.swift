import Foundation

/// The binary the end-to-end tests drive: `make test` builds it and passes its path in COMMONBROKER_BIN;
/// a plain `swift test` after `swift build` finds the debug build.
enum CommonBrokerBinary {
    static var path: String {
        if let path = ProcessInfo.processInfo.environment["COMMONBROKER_BIN"] { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/commonbroker").path
    }
}
