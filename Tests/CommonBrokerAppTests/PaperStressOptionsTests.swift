import CommonBrokerApp
import Testing

/// The hidden `paper-stress` command's arguments (the kill -9 end-to-end test runs it).
@Suite struct PaperStressOptionsTests {
    @Test func takesTheLedgerTheOrderCountAndTheSeed() throws {
        let parsed = try CommandLineArguments.parse(["paper-stress", "--seed", "7", "--ledger", "/tmp/l.jsonl", "--orders", "50"]).get()
        #expect(parsed == .paperStress(PaperStressOptions(ledgerPath: "/tmp/l.jsonl", orders: 50, seed: 7)))
    }

    @Test func refusesWhatItCannotUseSayingWhy() {
        func message(_ arguments: [String]) -> String? {
            if case .failure(let error) = CommandLineArguments.parse(["paper-stress"] + arguments) { return error.message }
            return nil
        }
        #expect(message(["--ledger", "l", "--orders", "5"]) == "--ledger, --orders and --seed are all required; usage: commonbroker paper-stress --ledger PATH --orders N --seed S")
        #expect(message(["--ledger", "l", "--orders", "0", "--seed", "1"]) == "--orders takes a count above 0, not '0'")
        #expect(message(["--ledger", "l", "--orders", "5", "--seed", "-1"]) == "--seed takes a whole number from 0, not '-1'")
        #expect(message(["--ledger", "l", "--ledger", "m"]) == "option '--ledger' is given more than once; usage: commonbroker paper-stress --ledger PATH --orders N --seed S")
        #expect(message(["--demo"]) == "unexpected argument '--demo'; usage: commonbroker paper-stress --ledger PATH --orders N --seed S")
    }

    @Test func isNotInTheHelp() {
        #expect(!CommandLineArguments.helpText.contains("paper-stress"))
    }
}
