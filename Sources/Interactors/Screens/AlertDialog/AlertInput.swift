import Domain
import TextSafety

/// What is typed in the alert dialog (`!`), read into an alert: words separated by spaces, in any order:
///
/// - one condition: `>190.5` (at or above), `<180` (at or below), `+5%` / `-3%` (a move from the price
///   now, the reference);
/// - optionally whose quotes: `any` (the default: every broker's), `@` (the selected row's broker) or
///   `@name` (a broker by its id or a word of its name, e.g. `@beta`, `@tradier`);
/// - optionally `rearm`: fire again after the price has gone back across the line (default: once).
public enum AlertInput {
    /// What the dialog knows about the row it was opened on.
    public struct Context: Sendable, Hashable {
        public var symbol: String
        public var rowBroker: ServiceBranding
        public var brokers: [ServiceBranding]
        /// The last trade per broker id for the symbol, for a move's reference price.
        public var lastPrices: [String: ExactDecimal]

        public init(symbol: String, rowBroker: ServiceBranding, brokers: [ServiceBranding], lastPrices: [String: ExactDecimal]) {
            self.symbol = symbol
            self.rowBroker = rowBroker
            self.brokers = brokers
            self.lastPrices = lastPrices
        }
    }

    public static let syntax = ">190.5  <180  +5%  -3%   then: any (default) | @ (this row's broker) | @name   rearm"

    /// The alert, or what is wrong with the text in a sentence that says what to type instead.
    public static func parse(_ text: String, in context: Context) -> Result<AlertDraft, Refusal> {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        // `> 190.5` typed with a space reads as `>190.5`.
        var index = 0
        while index < words.count - 1 {
            if ["<", ">", "+", "-"].contains(words[index]) {
                words[index] += words.remove(at: index + 1)
            }
            index += 1
        }
        guard !words.isEmpty else { return .failure(Refusal("type a condition: \(conditionExamples)")) }
        var condition: (word: String, value: Condition)?
        var scope: (word: String, value: AlertBrokerScope)?
        var rearm = false
        for word in words {
            let lowered = word.lowercased()
            if lowered == "rearm" {
                rearm = true
            } else if lowered == "any" || lowered == "@any" || word.hasPrefix("@") {
                if let scope { return .failure(Refusal("two brokers (\(scope.word) and \(shown(word))); give one, or any")) }
                switch broker(word, lowered: lowered, in: context) {
                case .success(let found): scope = (shown(word), found)
                case .failure(let refusal): return .failure(refusal)
                }
            } else {
                switch self.condition(word) {
                case .success(let found):
                    if let condition { return .failure(Refusal("two conditions (\(condition.word) and \(shown(word))); an alert has one")) }
                    condition = (shown(word), found)
                case .failure(let refusal): return .failure(refusal)
                }
            }
        }
        guard let condition else { return .failure(Refusal("no condition: add one of \(conditionExamples)")) }
        let chosenScope = scope?.value ?? .any
        let alertCondition: AlertCondition
        switch condition.value {
        case .above(let price): alertCondition = .above(price)
        case .below(let price): alertCondition = .below(price)
        case .move(let percent):
            guard let reference = referencePrice(for: chosenScope, in: context) else {
                return .failure(Refusal("no price yet for \(context.symbol) to measure \(condition.word) from; wait for a quote or use > or <"))
            }
            alertCondition = .move(percent: percent, reference: reference)
        }
        return .success(AlertDraft(symbol: context.symbol, condition: alertCondition, scope: chosenScope, rearm: rearm ? .whenCleared : .once))
    }

    /// Why the text is not an alert, as the dialog shows it.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    private enum Condition {
        case above(ExactDecimal), below(ExactDecimal), move(ExactDecimal)
    }

    private static let conditionExamples = ">190.5, <180, +5% or -3%"

    private static func condition(_ word: String) -> Result<Condition, Refusal> {
        let shownWord = shown(word)
        let bare = VisibleText.escaped(word)
        guard let first = word.first else { return .failure(Refusal("type a condition: \(conditionExamples)")) }
        switch first {
        case ">", "<":
            let digits = word.dropFirst()
            guard let price = ExactDecimal(parsing: digits), price.isPositive else {
                return .failure(Refusal("\(shownWord) needs a price above 0 after \(first), such as \(first)190.5"))
            }
            return .success(first == ">" ? .above(price) : .below(price))
        case "+", "-":
            guard word.hasSuffix("%"), let percent = ExactDecimal(parsing: word.dropFirst().dropLast()) else {
                return .failure(Refusal("\(shownWord) is not a move: write a sign, a number and %, such as +5% or -0.5%"))
            }
            guard percent.isPositive else { return .failure(Refusal("a move of 0% would fire at once; use e.g. +5% or -3%")) }
            if first == "-", percent >= 100 { return .failure(Refusal("\(shownWord) would need a price of 0 or less; a fall is less than 100%")) }
            return .success(.move(first == "-" ? -percent : percent))
        default:
            if word.hasSuffix("%"), ExactDecimal(parsing: word.dropLast()) != nil {
                return .failure(Refusal("\(shownWord) has no direction: +\(bare) for a rise, -\(bare) for a fall"))
            }
            if ExactDecimal(parsing: word) != nil {
                return .failure(Refusal("\(shownWord) has no direction: >\(bare) fires at or above it, <\(bare) at or below"))
            }
            return .failure(Refusal("\(shownWord) is not a condition (\(conditionExamples)), a broker (any, @, @name) or rearm"))
        }
    }

    private static func broker(_ word: String, lowered: String, in context: Context) -> Result<AlertBrokerScope, Refusal> {
        if lowered == "any" || lowered == "@any" { return .success(.any) }
        let name = String(lowered.dropFirst())
        if name.isEmpty { return .success(.broker(context.rowBroker.id)) }
        if let exact = context.brokers.first(where: { $0.id.lowercased() == name }) { return .success(.broker(exact.id)) }
        let matches = context.brokers.filter { broker in
            broker.id.lowercased().split(separator: "-").contains(Substring(name))
                || broker.name.lowercased().split(separator: " ").contains(Substring(name))
        }
        let ids = context.brokers.map(\.id).joined(separator: ", ")
        switch matches.count {
        case 1: return .success(.broker(matches[0].id))
        case 0: return .failure(Refusal("no broker \(shown(word)); brokers: \(ids), or any"))
        default: return .failure(Refusal("\(shown(word)) could be \(matches.map(\.id).joined(separator: " or ")); give its id"))
        }
    }

    /// A move is measured from the chosen broker's last trade; with `any`, from the selected row's, else
    /// the first broker that has one.
    private static func referencePrice(for scope: AlertBrokerScope, in context: Context) -> ExactDecimal? {
        switch scope {
        case .broker(let id):
            return context.lastPrices[id]
        case .any:
            return context.lastPrices[context.rowBroker.id]
                ?? context.brokers.lazy.compactMap { context.lastPrices[$0.id] }.first
        }
    }

    private static func shown(_ word: String) -> String {
        "'\(VisibleText.escaped(String(word.prefix(24))))'"
    }
}
