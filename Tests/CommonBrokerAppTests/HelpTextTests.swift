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

    /// The alerts commands, their exit statuses and config keys are in the help, as scripts need them.
    @Test func helpTextDocumentsAlerts() {
        let help = CommandLineArguments.helpText
        for expected in [
            "commonbroker alerts check|list [--json]", "alerts check      Fetch one round of quotes for the saved price alerts",
            "one JSON object a line", "status 0 when none fired, 3 when some did, 1 on error", "alerts list       The saved alerts",
            "alerts.bell              ring the terminal bell when an alert fires (true)",
            "alerts.desktop           also notify through notify-send, if on PATH (false)",
            "--json            With print or alerts",
        ] {
            #expect(help.contains(expected), "help lacks \(expected)")
        }
        #expect(AlertsCommand.firedStatus == 3, "the help's exit status is the command's")
    }
}
