import Foundation
import TestSupport
import Testing

/// The Makefile's run targets, dry-run (`make -n` builds nothing).
@Suite struct MakefileTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Under make, Ctrl-Z stops make (the shell's job) before the app has restored the screen, and the
    /// shell's Stopped notice is wiped: the targets still build first, then say how to run the binary as
    /// the shell's own job, and exec it.
    @Test(arguments: [("demo", ".build/release/commonbroker --demo"), ("run", ".build/release/commonbroker")])
    func runTargetsBuildThenPrintTheSuspendHintAndExecTheBinary(target: String, command: String) async throws {
        let result = try await Subprocess.run("/usr/bin/make", ["-C", Self.root.path, "-n", target], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let build = try #require(lines.firstIndex { $0.contains("build -c release") }, "\(result.output)")
        let hint = try #require(lines.firstIndex { $0.contains("Ctrl-Z") && $0.hasSuffix(command + "\"") }, "\(result.output)")
        let exec = try #require(lines.firstIndex { $0 == "exec " + command }, "\(result.output)")
        #expect(build < hint && hint < exec)
    }

    /// `make test-tsan` stretches the tests' wall-clock limits (TSan's slowdown); `make test` keeps them as written.
    @Test func onlyTheSanitizerRunScalesTheTestsTimeLimits() async throws {
        let tsan = try await Subprocess.run("/usr/bin/make", ["-C", Self.root.path, "-n", "test-tsan"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(tsan.status == 0, "\(tsan.output)")
        let tsanTests = tsan.output.split(separator: "\n").filter { $0.contains("--sanitize=thread") && $0.contains("--skip-build") }
        #expect(!tsanTests.isEmpty, "\(tsan.output)")
        #expect(tsan.output.contains("\(TestTime.variable)=5"), "\(tsan.output)")

        let plain = try await Subprocess.run("/usr/bin/make", ["-C", Self.root.path, "-n", "test"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(plain.status == 0, "\(plain.output)")
        #expect(plain.output.contains(" test --parallel"), "\(plain.output)")
        #expect(!plain.output.contains(TestTime.variable), "\(plain.output)")
    }
}
