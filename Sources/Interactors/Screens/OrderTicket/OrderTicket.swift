import Domain
import Foundation
import TerminalKit

/// The order ticket (`B` / `S` on a row): one symbol, a broker to send it to, side, quantity, type,
/// prices and time in force, with a preview of what it costs. Enter checks every field and sends the
/// order; a field that is wrong keeps everything typed and says what to fix. A live broker's order needs
/// its symbol typed again first. Esc closes it without sending.
public struct OrderTicket: Sendable, Hashable {
    public enum Field: Sendable, Hashable, CaseIterable {
        case broker, side, quantity, type, limit, stop, timeInForce
    }

    /// The order's type without its prices, which are typed in their own fields.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case market, limit, stop, stopLimit = "stop limit"
    }

    public enum Step: Sendable, Hashable {
        case editing
        /// A live order: the symbol must be typed again.
        case confirmingLive(TextPrompt)
        /// Sent; waiting for the broker's answer.
        case sending
    }

    public let symbol: String
    /// The brokers it can go to (never empty).
    public let brokers: [TradingBroker]
    public private(set) var brokerIndex: Int
    public private(set) var side: OrderSide
    public private(set) var quantity: String
    public private(set) var kind: Kind = .market
    public private(set) var limit: String = ""
    public private(set) var stop: String = ""
    public private(set) var timeInForce: TimeInForce = .day
    public private(set) var focus: Field = .quantity
    public private(set) var step: Step = .editing
    /// Why the last Enter did not send, and the field to fix (nil: the broker said no).
    public private(set) var problem: Problem?
    /// Sent with the order so that a retry can be recognised (`ClientOrderID`).
    public let clientOrderID: ClientOrderID

    public struct Problem: Error, Sendable, Hashable {
        public var field: Field?
        public var message: String
    }

    /// Nil when no broker can trade.
    public init?(symbol: String, side: OrderSide, brokers: [TradingBroker], preferredBrokerID: String?, clientOrderID: ClientOrderID, quantity: String = "") {
        guard !brokers.isEmpty else { return nil }
        self.symbol = symbol
        self.side = side
        self.brokers = brokers
        self.brokerIndex = brokers.firstIndex { $0.branding.id == preferredBrokerID } ?? 0
        self.clientOrderID = clientOrderID
        self.quantity = quantity
    }

    public var broker: TradingBroker { brokers[brokerIndex] }

    /// The fields shown for this type: prices only where the type has them.
    public var fields: [Field] {
        Field.allCases.filter { field in
            switch field {
            case .limit: kind == .limit || kind == .stopLimit
            case .stop: kind == .stop || kind == .stopLimit
            default: true
            }
        }
    }

    public static func isChoice(_ field: Field) -> Bool {
        switch field {
        case .broker, .side, .type, .timeInForce: true
        case .quantity, .limit, .stop: false
        }
    }

    // MARK: Keys

    public enum Action: Sendable, Hashable {
        case nextField, previousField
        /// ← / → or space on a choice field.
        case cycle(by: Int)
        case type(Character)
        case backspace
        case submit
        case cancel
        case confirm(TextPrompt.Action)
    }

    public func action(for key: KeyPress) -> Action? {
        switch step {
        case .confirmingLive: return TextPrompt.action(for: key).map(Action.confirm)
        case .sending: return key == .escape ? .cancel : nil
        case .editing: break
        }
        switch key {
        case .tab, .down: return .nextField
        case .backTab, .up: return .previousField
        case .left: return Self.isChoice(focus) ? .cycle(by: -1) : nil
        case .right, .character(" "): return Self.isChoice(focus) ? .cycle(by: 1) : nil
        case .enter, .character("\r"), .character("\n"): return .submit
        case .escape: return .cancel
        case .backspace, .control("h"), .character("\u{7F}"), .character("\u{08}"):
            return Self.isChoice(focus) ? nil : .backspace
        case .character(let character) where !Self.isChoice(focus) && (character.isASCII && (character.isNumber || character == ".")):
            return .type(character)
        default: return nil
        }
    }

    // MARK: Update

    public mutating func update(_ action: Action) -> [ScreenRequest] {
        switch action {
        case .nextField: moveFocus(by: 1)
        case .previousField: moveFocus(by: -1)
        case .cycle(let offset): cycle(by: offset)
        case .type(let character):
            edit { text in if text.count < 20 { text.append(character) } }
        case .backspace:
            edit { text in text.removeLast(text.isEmpty ? 0 : 1) }
        case .cancel:
            if case .confirmingLive = step {
                step = .editing
                return []
            }
            return [.close]
        case .submit:
            return submit()
        case .confirm(let promptAction):
            return confirm(promptAction)
        }
        return []
    }

    /// The broker's answer to the order this ticket sent.
    public mutating func placed(_ result: Result<Order, BrokerError>) -> [ScreenRequest] {
        switch result {
        case .success(let order) where order.status == .filled:
            return [.close, .say(.info, Self.describeFill(order, at: broker.branding.name))]
        case .success(let order):
            return [.close, .say(.info, "\(Self.describe(order.request)) sent to \(broker.branding.name): \(order.status.name) · O shows orders")]
        case .failure(let error):
            step = .editing
            problem = Problem(field: nil, message: "\(broker.branding.name) refused it: \(error.description)")
            return []
        }
    }

    /// "Paper filled 10 of BUY 10 AAPL market day at 190.12".
    public static func describeFill(_ order: Order, at brokerName: String) -> String {
        let price = order.averageFillPrice.map { price in
            " at " + price.formatted(fractionDigits: max(PriceIncrement.usEquities.decimals(at: price), min(price.significantFractionDigits, 4)))
        } ?? ""
        return "\(brokerName) filled \(order.filledQuantity) of \(describe(order.request))\(price)"
    }

    /// "BUY 10 AAPL limit 190.12 day".
    public static func describe(_ request: OrderRequest) -> String {
        var text = "\(request.side.label.uppercased()) \(request.quantity) \(request.symbol) \(request.type.name.replacingOccurrences(of: "_", with: " "))"
        if let stop = request.type.stopPrice { text += " stop \(stop)" }
        if let limit = request.type.limitPrice { text += " \(limit)" }
        return text + " \(request.timeInForce.rawValue)"
    }

    private mutating func moveFocus(by offset: Int) {
        let shown = fields
        let index = shown.firstIndex(of: focus) ?? 0
        focus = shown[(index + offset + shown.count) % shown.count]
    }

    private mutating func cycle(by offset: Int) {
        func next<T: Equatable>(_ value: T, in all: [T]) -> T {
            let index = all.firstIndex(of: value) ?? 0
            return all[(index + offset + all.count) % all.count]
        }
        switch focus {
        case .broker: brokerIndex = (brokerIndex + offset + brokers.count) % brokers.count
        case .side: side = next(side, in: OrderSide.allCases)
        case .type: kind = next(kind, in: Kind.allCases)
        case .timeInForce: timeInForce = next(timeInForce, in: TimeInForce.allCases)
        case .quantity, .limit, .stop: return
        }
        problem = nil
    }

    private mutating func edit(_ change: (inout String) -> Void) {
        switch focus {
        case .quantity: change(&quantity)
        case .limit: change(&limit)
        case .stop: change(&stop)
        case .broker, .side, .type, .timeInForce: return
        }
        if problem?.field == focus || problem?.field == nil { problem = nil }
    }

    // MARK: Checking

    /// The order the fields make, or the first field that is wrong and why.
    public func request() -> Result<OrderRequest, Problem> {
        guard let shares = ExactDecimal(parsing: quantity), shares.isPositive else {
            let message = quantity.isEmpty ? "type how many shares" : "quantity \(quantity) is not a number of shares above 0"
            return .failure(Problem(field: .quantity, message: message))
        }
        func price(_ text: String, _ field: Field, _ name: String) -> Result<ExactDecimal, Problem> {
            guard let value = ExactDecimal(parsing: text), value.isPositive else {
                let message = text.isEmpty ? "type a \(name) price" : "\(name) price \(text) is not a price above 0"
                return .failure(Problem(field: field, message: message))
            }
            let ticks = PriceIncrement.usEquities
            guard ticks.isValid(value) else {
                let step = ticks.decimals(at: value) == 2 ? "whole cents at $1.00 and above" : "at most 4 decimals below $1.00"
                return .failure(Problem(field: field, message: "\(name) price \(value) is not a valid price: \(step), e.g. \(ticks.rounded(value))"))
            }
            return .success(value)
        }
        let type: OrderType
        switch kind {
        case .market:
            type = .market
        case .limit:
            switch price(limit, .limit, "limit") {
            case .success(let value): type = .limit(value)
            case .failure(let problem): return .failure(problem)
            }
        case .stop:
            switch price(stop, .stop, "stop") {
            case .success(let value): type = .stop(value)
            case .failure(let problem): return .failure(problem)
            }
        case .stopLimit:
            let stopPrice: ExactDecimal
            switch price(stop, .stop, "stop") {
            case .success(let value): stopPrice = value
            case .failure(let problem): return .failure(problem)
            }
            switch price(limit, .limit, "limit") {
            case .success(let value): type = .stopLimit(stop: stopPrice, limit: value)
            case .failure(let problem): return .failure(problem)
            }
        }
        do {
            return .success(try OrderRequest(
                symbol: symbol, side: side, quantity: shares, type: type, timeInForce: timeInForce, clientOrderID: clientOrderID))
        } catch {
            return .failure(Problem(field: nil, message: error.description))
        }
    }

    private mutating func submit() -> [ScreenRequest] {
        switch request() {
        case .failure(let problem):
            self.problem = problem
            if let field = problem.field { focus = field }
            return []
        case .success(let request):
            problem = nil
            if broker.isLive {
                step = .confirmingLive(TextPrompt(limit: 20))
                return []
            }
            step = .sending
            return [.effect(.placeOrder(brokerID: broker.branding.id, request))]
        }
    }

    private mutating func confirm(_ action: TextPrompt.Action) -> [ScreenRequest] {
        guard case .confirmingLive(var prompt) = step else { return [] }
        switch action {
        case .cancel:
            step = .editing
        case .type, .backspace:
            prompt.edit(action)
            step = .confirmingLive(prompt)
        case .submit:
            guard prompt.text.trimmingCharacters(in: .whitespaces).uppercased() == symbol else {
                step = .confirmingLive(prompt.refused("type \(symbol) to send this live order, or Esc to go back"))
                return []
            }
            guard case .success(let request) = request() else {
                step = .editing
                return []
            }
            step = .sending
            return [.effect(.placeOrder(brokerID: broker.branding.id, request))]
        }
        return []
    }
}

extension OrderSide {
    /// "buy", "sell", "sell short", "buy to cover".
    public var label: String { rawValue.replacingOccurrences(of: "_", with: " ") }
}
