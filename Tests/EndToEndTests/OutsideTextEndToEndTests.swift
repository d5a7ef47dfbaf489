import Foundation
import TestSupport
import Testing

/// Text from the command line reaches stderr escaped, as typed (issue 12, item 1).
@Suite struct OutsideTextEndToEndTests {
    var binary: String { CommonBrokerBinary.path }

    @Test(arguments: [["--symbols", "A\u{1B}[31mB"], ["print", "--symbols", "A\u{1B}[31mB"]])
    func anEscapeSequenceInAnArgumentIsShownEscapedNotRun(arguments: [String]) async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cb-args-\(UUID().uuidString)").path
        let (status, output) = try await Subprocess.run(binary, arguments, environment: [
            "HOME": home, "XDG_STATE_HOME": home, "XDG_CONFIG_HOME": home, "PATH": "/usr/bin:/bin", "TERM": "xterm",
        ])
        #expect(status == 2)
        #expect(output == "commonbroker: invalid symbol in --symbols: A\\u{1b}[31mB contains '\\u{1b}'; use letters, digits, . - / ^\n")
        #expect(!output.unicodeScalars.contains { $0.value == 0x1B }, "no raw ESC reaches the terminal")
    }
}
