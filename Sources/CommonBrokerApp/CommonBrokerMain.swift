import Foundation
import TerminalKit

/// The `commonbroker` command: parses arguments and runs the chosen command. Returns the exit status.
public enum CommonBrokerMain {
    public static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        let invocation: Invocation
        switch CommandLineArguments.parse(arguments) {
        case .success(let parsed): invocation = parsed
        case .failure(let error):
            StandardError.write("commonbroker: \(error)")
            return 2
        }
        switch invocation {
        case .help:
            FileHandle.standardOutput.write(Data(CommandLineArguments.helpText.utf8))
            return 0
        case .version:
            FileHandle.standardOutput.write(Data("commonbroker \(CommonBrokerVersion.string)\n".utf8))
            return 0
        case .run(let options):
            guard let app = compose(options, environment, frameClock: FrameClock()) else { return 78 }
            return await InteractiveCommand.run(app)
        case .print(let options, let output):
            guard let app = compose(options, environment) else { return 78 }
            return await PrintCommand.run(app, output: output)
        case .printPortfolio(let options, let kind, let format):
            guard let app = compose(options, environment) else { return 78 }
            return await PortfolioCommand.run(app, kind: kind, format: format)
        case .importLots(let file, let again):
            return ImportLotsCommand.run(file: file, again: again, environment: environment)
        case .relay(let options):
            guard let app = compose(options, environment, relay: true) else { return 78 }
            return await RelayCommand.run(app)
        case .alerts(let options, let action, let json):
            guard let app = compose(options, environment) else { return 78 }
            return await AlertsCommand.run(app, action, json: json)
        case .paperStress(let options):
            return await PaperStressCommand.run(options)
        }
    }

    private static func compose(
        _ options: RunOptions, _ environment: [String: String], relay: Bool = false, frameClock: FrameClock? = nil
    ) -> AppComposition? {
        do {
            return try AppComposition.build(options: options, environment: environment, relay: relay, frameClock: frameClock)
        } catch {
            StandardError.write("commonbroker: \(error.description)")
            return nil
        }
    }
}
