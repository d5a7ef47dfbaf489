import TerminalKit
import Foundation
import Testing
import TerminalUI

/// Golden-file snapshots of a frame's text. Each line is stored between `|` marks so trailing spaces
/// survive editors. `RECORD_SNAPSHOTS=1 swift test --filter TerminalUITests` rewrites the files (and
/// fails, so a recording is never mistaken for a pass); review the diff before committing.
enum Snapshot {
    static func expect(
        _ buffer: ScreenBuffer, matches name: String,
        filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expect(text: text(of: buffer), matches: name, filePath: filePath, sourceLocation: sourceLocation)
    }

    /// The same for any text made from a frame (`ColorMap`).
    static func expect(
        text actual: String, matches name: String,
        filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let url = URL(fileURLWithPath: filePath)
            .deletingLastPathComponent()
            .appendingPathComponent("Snapshots")
            .appendingPathComponent("\(name).txt")

        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try actual.write(to: url, atomically: true, encoding: .utf8)
                Issue.record("Recorded \(url.path); review it, then run again without RECORD_SNAPSHOTS", sourceLocation: sourceLocation)
            } catch {
                Issue.record("Could not record \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }

        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("No snapshot at \(url.path); record it with RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        guard expected != actual else { return }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var report = ["Snapshot \(name) differs (- expected, + actual):"]
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let old = index < expectedLines.count ? String(expectedLines[index]) : "<none>"
            let new = index < actualLines.count ? String(actualLines[index]) : "<none>"
            if old != new {
                report.append("line \(index) - \(old)")
                report.append("line \(index) + \(new)")
            }
        }
        Issue.record(Comment(rawValue: report.joined(separator: "\n")), sourceLocation: sourceLocation)
    }

    static func text(of buffer: ScreenBuffer) -> String {
        buffer.lines.map { "|\($0)|\n" }.joined()
    }
}
