import TextSafety

/// `commonbroker paper-stress --ledger PATH --orders N --seed S`: the hidden command the kill -9 test
/// runs (`PaperStressCommand`). Not in `--help`: it is a test instrument, not a feature.
public struct PaperStressOptions: Sendable, Equatable {
    public static let command = "paper-stress"
    static let usage = "usage: commonbroker paper-stress --ledger PATH --orders N --seed S"

    public var ledgerPath: String
    public var orders: Int
    public var seed: UInt64

    public init(ledgerPath: String, orders: Int, seed: UInt64) {
        self.ledgerPath = ledgerPath
        self.orders = orders
        self.seed = seed
    }

    /// `arguments` follow the command word. All three options are required, each once.
    static func parse(_ arguments: some Collection<String>) -> Result<PaperStressOptions, UsageError> {
        var values: [String: String] = [:]
        var rest = arguments[...]
        while let name = rest.popFirst() {
            guard ["--ledger", "--orders", "--seed"].contains(name) else {
                return .failure(UsageError("unexpected argument '\(VisibleText.escaped(name))'; \(usage)"))
            }
            guard values[name] == nil else { return .failure(UsageError("option '\(name)' is given more than once; \(usage)")) }
            guard let value = rest.popFirst(), !value.isEmpty else {
                return .failure(UsageError("option '\(name)' needs a value; \(usage)"))
            }
            values[name] = value
        }
        guard let ledger = values["--ledger"], let ordersText = values["--orders"], let seedText = values["--seed"] else {
            return .failure(UsageError("--ledger, --orders and --seed are all required; \(usage)"))
        }
        guard let orders = Int(ordersText), orders > 0 else {
            return .failure(UsageError("--orders takes a count above 0, not '\(VisibleText.escaped(ordersText))'"))
        }
        guard let seed = UInt64(seedText) else {
            return .failure(UsageError("--seed takes a whole number from 0, not '\(VisibleText.escaped(seedText))'"))
        }
        return .success(PaperStressOptions(ledgerPath: ledger, orders: orders, seed: seed))
    }
}
