import Testing
@testable import CommonBrokerApp

@Suite struct HelpTextTests {
    /// Without the final newline the shell's prompt lands on the last line of the help.
    @Test func helpTextEndsWithExactlyOneNewline() {
        let help = CommandLineArguments.helpText
        #expect(help.hasSuffix("\n"))
        #expect(!help.hasSuffix("\n\n"))
    }

    /// The usage line and the options name every format of print, and say what --follow does and how it ends.
    @Test func helpTextDescribesPrintsFormats() {
        let help = CommandLineArguments.helpText
        #expect(help.contains("commonbroker print [--json|--csv|--follow] [same options]"))
        #expect(help.contains("--csv             With print: write CSV (RFC 4180, a header row first)."))
        #expect(help.contains("--follow          With print: one JSON object a line for every quote as it"))
        #expect(help.contains("until Ctrl-C or SIGTERM"))
        #expect(help.contains("print --follow | jq"))
    }
}
