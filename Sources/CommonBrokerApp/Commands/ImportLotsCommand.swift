import Foundation
import Stores

/// `commonbroker import lots FILE.csv [--again]`: adds the file's lots to the holdings book in the state
/// directory, all of them or none. No config, no brokers, no curses.
enum ImportLotsCommand {
    /// What the command has to say: `output` for stdout, `errors` for stderr (one message a line, written
    /// through `StandardError`, which escapes), and the exit status.
    struct Outcome: Equatable {
        var status: Int32
        var output: String
        var errors: [String]
    }

    /// Runs the command and writes what it has to say. 0 when imported, 1 when nothing was.
    static func run(file: String, again: Bool, environment: [String: String]) -> Int32 {
        let outcome = outcome(file: file, again: again, environment: environment, holdings: { ManualHoldings(file: $0) })
        FileHandle.standardOutput.write(Data(outcome.output.utf8))
        for line in outcome.errors { StandardError.write("commonbroker: \(line)") }
        return outcome.status
    }

    /// The command without its effects on stdout and stderr; `holdings` builds the book's service for the
    /// state directory (tests pin its clock).
    static func outcome(
        file: String, again: Bool, environment: [String: String],
        holdings: (ManualHoldingsFile) -> ManualHoldings
    ) -> Outcome {
        let paths: AppPaths
        switch AppPaths.resolve(configOption: nil, environment: environment) {
        case .success(let resolved): paths = resolved
        case .failure(let error): return Outcome(status: 1, output: "", errors: [error.description])
        }
        let book = holdings(ManualHoldingsFile(directory: URL(fileURLWithPath: paths.stateDirectory)))
        do {
            let summary = try book.importLots(fromFileAt: file, again: again)
            return Outcome(status: 0, output: summary.description + "\n", errors: [])
        } catch {
            return Outcome(status: 1, output: "", errors: error.lines)
        }
    }
}
