import Testing
@testable import CommonBrokerApp

@Suite struct HelpTextTests {
    /// Without the final newline the shell's prompt lands on the last line of the help.
    @Test func helpTextEndsWithExactlyOneNewline() {
        let help = CommandLineArguments.helpText
        #expect(help.hasSuffix("\n"))
        #expect(!help.hasSuffix("\n\n"))
    }
}
