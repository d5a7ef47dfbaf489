import Domain
import Foundation
import Networking
import TextSafety

/// Tradier's market stream protocol (reference §1.5), on a socket opened with a fresh session id. There
/// is no acknowledgement of anything: the stream is live once the socket is open. Every payload replaces
/// the whole subscription, so each hub call sends one payload with the complete current set.
///
/// Symbols are kept as the hub names them (`BRK.B`) and sent in Tradier's spelling (`BRK/B`); events
/// come back in Tradier's spelling and are emitted under every hub symbol with that spelling (`BRK.B`
/// and `BRK/B` can both be on the watchlist). Trades and quotes are merged per Tradier symbol by the
/// `StreamQuoteBook` rules; the cumulative volume of trades and the previous close of summaries ride along.
struct TradierStreamStateMachine: StreamSessionMachine {
    static let brokerName = "tradier"
    typealias Decoder = TradierStreamDecoder
    /// Tradier refuses an empty list; Lean sends this placeholder to unsubscribe from everything [M].
    static let emptyPlaceholder = "$empty$"
    static let sandboxHint = "Tradier's sandbox does not stream market data: use a production token"

    /// Hub symbol → Tradier symbol, for what the hub wants and Tradier has not refused.
    private(set) var subscribed: [String: String] = [:]
    /// Everything kept per Tradier symbol, in one table so that an event costs one lookup.
    private var wires: [String: Wire] = [:]
    private(set) var announcedLive = false
    private let sessionID: String
    private let isSandbox: Bool
    private let secrets: [String]
    private let now: @Sendable () -> Date

    /// One Tradier symbol: the hub symbols spelled that way (sorted), its merged prices, what a quote
    /// carries beyond the book's last, bid and ask, and the quote last emitted (under the Tradier symbol).
    private struct Wire: Sendable {
        var hubSymbols: [String] = []
        var book = StreamQuoteBook.Entry()
        var previousClose: ExactDecimal?
        var volume: Int64?
        var lastQuote: CommonQuote?
    }

    /// `secrets` (the session id and the token) are removed from any server text that reaches an error.
    /// `now` dates events that come without a date.
    init(sessionID: String, isSandbox: Bool, secrets: [String], now: @escaping @Sendable () -> Date) {
        self.sessionID = sessionID
        self.isSandbox = isSandbox
        self.secrets = ([sessionID] + secrets).filter { !$0.isEmpty }
        self.now = now
    }

    mutating func receive(_ events: ArraySlice<TradierStreamEvent>, into actions: inout [StreamSessionAction]) {
        let start = actions.count
        for event in events {
            switch event {
            case .trade(let wire, let price, let volume, let timestamp):
                guard let index = wires.index(forKey: wire),
                      let quote = StreamQuoteBook.trade(&wires.values[index].book, wire, price: price, at: timestamp ?? now())
                else { continue }
                Self.emit(quote, of: &wires.values[index], volume: volume.flatMap { $0 >= 0 ? $0 : nil }, into: &actions)
            case .quote(let wire, let bid, let ask, let timestamp):
                guard let index = wires.index(forKey: wire),
                      let quote = StreamQuoteBook.quote(&wires.values[index].book, wire, bid: bid, ask: ask, at: timestamp ?? now())
                else { continue }
                Self.emit(quote, of: &wires.values[index], into: &actions)
            case .summary(let wire, let previousClose):
                guard let index = wires.index(forKey: wire), previousClose.isPositive else { continue }
                wires.values[index].previousClose = previousClose
                // Summaries carry no price: they only complete a quote already shown.
                if let shown = wires.values[index].lastQuote { Self.emit(shown, of: &wires.values[index], into: &actions) }
            case .error(let message):
                let outcome = errorActions(message)
                actions += outcome.actions
                if outcome.ended { return }
            }
        }
        // In front of this step's actions, without building a new array.
        if !announcedLive { actions.insert(contentsOf: announceLive(), at: start) }
    }

    mutating func subscribe(_ symbols: Set<String>) -> [StreamSessionAction] {
        var actions = announceLive()
        var added = false
        for symbol in symbols.sorted() where subscribed[symbol] == nil {
            guard case .success(let canonical) = Symbol.normalize(symbol) else {
                actions.append(.emit(.symbolFailed(symbol, .unknownSymbol(VisibleText.escaped(symbol)))))
                continue
            }
            let wire = TradierSymbol.wire(canonical)
            subscribed[symbol] = wire
            wires[wire, default: Wire()].hubSymbols.append(symbol)
            wires[wire]?.hubSymbols.sort()
            added = true
        }
        if added { actions.append(.send(payload())) }
        return actions
    }

    mutating func unsubscribe(_ symbols: Set<String>) -> [StreamSessionAction] {
        let removed = symbols.filter { subscribed[$0] != nil }
        guard !removed.isEmpty else { return announceLive() }
        remove(removed)
        return announceLive() + [.send(payload())]
    }

    /// `{"symbols":["AAPL","BRK/B"],"sessionid":"…","filter":["trade","quote","summary"],"linebreak":true,"validOnly":true}`,
    /// symbols sorted; `["$empty$"]` when nothing is subscribed.
    func payload() -> String {
        let symbols = wires.isEmpty ? [Self.emptyPlaceholder] : wires.keys.sorted()
        return #"{"symbols":\#(StreamJSONText.array(symbols)),"sessionid":\#(StreamJSONText.quoted(sessionID)),"#
            + #""filter":["trade","quote","summary"],"linebreak":true,"validOnly":true}"#
    }

    /// `.live` the first time the session does anything. The session is only created once the socket is
    /// open, and the hub subscribes as soon as a session opens, so this is as early as "connected" can be
    /// reported through a `StreamSessionMachine` (it has no start step).
    private mutating func announceLive() -> [StreamSessionAction] {
        guard !announcedLive else { return [] }
        announcedLive = true
        return [.emit(.live)]
    }

    /// `quote` (from the book, under its Tradier symbol) with the volume (`volume`, else the one known)
    /// and close known for it, once per hub symbol spelled that way. `wire` is the symbol's entry, found
    /// by the caller and changed in place.
    private static func emit(
        _ quote: CommonQuote, of wire: inout Wire, volume: Int64? = nil, into actions: inout [StreamSessionAction]
    ) {
        var quote = quote
        if let volume { wire.volume = volume }
        quote.previousClose = wire.previousClose
        quote.volume = wire.volume
        wire.lastQuote = quote
        for symbol in wire.hubSymbols {
            quote.symbol = symbol
            actions.append(.emit(.quote(quote)))
        }
    }

    private mutating func remove(_ symbols: some Sequence<String>) {
        for symbol in symbols {
            guard let wire = subscribed.removeValue(forKey: symbol) else { continue }
            wires[wire]?.hubSymbols.removeAll { $0 == symbol }
            // The symbol's prices, close and volume go with its last spelling: a later subscription starts fresh.
            if wires[wire]?.hubSymbols.isEmpty == true { wires[wire] = nil }
        }
    }

    /// What an error frame means (reference §1.5):
    /// - a session problem ("session not found", expired): this connection is over; the hub's reconnect
    ///   makes a new session (retryable). In the sandbox, which has no market stream, it is permanent.
    /// - a subscribed symbol named in the text ("BRK/B is not a valid symbol"): that symbol fails, and the
    ///   payload is sent again without it, since Tradier's set is whatever the last payload said;
    /// - anything else ends this connection (retryable), showing the message.
    private mutating func errorActions(_ message: String) -> (actions: [StreamSessionAction], ended: Bool) {
        // Redacted before it is cut, so no prefix of a secret can survive.
        let text = VisibleText.escaped(Redaction.text(message, secretValues: secrets))
        if text.lowercased().contains("session") {
            if isSandbox { return ([.fail(.unauthorized(hint: Self.sandboxHint))], true) }
            return ([.fail(.network("tradier stream: session refused (\(text.prefix(80))); reconnecting makes a new one"))], true)
        }
        if let wire = SymbolMention.find(in: text, among: wires.keys), let symbols = wires[wire]?.hubSymbols {
            remove(symbols)
            return (symbols.map { .emit(.symbolFailed($0, .unknownSymbol($0))) } + [.send(payload())], false)
        }
        return ([.fail(.badResponse("tradier stream: error: \(text.prefix(120))"))], true)
    }
}
