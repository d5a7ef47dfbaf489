import Domain
import Foundation
import Networking
import TextSafety

/// Finnhub's trades stream protocol (reference §4.2). The token travels in the URL, so there is no auth
/// exchange: once the socket is open the stream is live. Subscribes and unsubscribes are one message per
/// symbol, unacknowledged; each hub call sends its symbols' messages together, sorted.
///
/// A `trade` message may batch several trades of one symbol: each symbol's latest trade of the message
/// (by timestamp, the later one in the array on a tie) becomes one quote, emitted in the order the
/// symbols first appear. The hub keeps only the newest price per symbol anyway; conflating here saves it
/// the intermediate ones.
struct FinnhubStreamStateMachine: StreamSessionMachine {
    static let brokerName = "finnhub"
    typealias Decoder = FinnhubStreamDecoder
    static let symbolLimit = "Finnhub's symbol limit for your plan is reached (about 50 on the free plan): remove symbols from the watchlist"

    /// What the hub wants and Finnhub has not refused, newest last: the filter for trades (an unsubscribed
    /// symbol can still deliver a few buffered trades), and the order a symbol-limit error is blamed in.
    private(set) var subscribed: [String] = []
    private var subscribedSet: Set<String> = []
    private(set) var announcedLive = false
    private let credentialHint: String
    private let secrets: [String]

    /// `secrets` (the token) are removed from any server text that reaches an error.
    init(credentialHint: String, secrets: [String]) {
        self.credentialHint = credentialHint
        self.secrets = secrets.filter { !$0.isEmpty }
    }

    mutating func receive(_ events: ArraySlice<FinnhubStreamEvent>, into actions: inout [StreamSessionAction]) {
        actions += announceLive()
        var quotes: [CommonQuote] = []
        var quoteIndex: [String: Int] = [:]
        for event in events {
            switch event {
            case .trade(let symbol, let price, let timestamp):
                guard subscribedSet.contains(symbol), price.isPositive else { continue }
                let quote = CommonQuote(symbol: symbol, last: price, timestamp: timestamp)
                if let index = quoteIndex[symbol] {
                    if timestamp >= quotes[index].timestamp { quotes[index] = quote }
                } else {
                    quoteIndex[symbol] = quotes.count
                    quotes.append(quote)
                }
            case .ping:
                // Only a sign of life, which the WebSocket's idle timeout already counts.
                continue
            case .error(let message):
                let outcome = errorActions(message)
                actions += outcome.actions
                if outcome.ended { return }
            }
        }
        for quote in quotes { actions.append(.emit(.quote(quote))) }
    }

    mutating func subscribe(_ symbols: Set<String>) -> [StreamSessionAction] {
        let added = symbols.subtracting(subscribedSet).sorted()
        subscribedSet.formUnion(added)
        subscribed += added
        return announceLive() + added.map { .send(Self.message("subscribe", $0)) }
    }

    mutating func unsubscribe(_ symbols: Set<String>) -> [StreamSessionAction] {
        let removed = symbols.intersection(subscribedSet)
        remove(removed)
        return announceLive() + removed.sorted().map { .send(Self.message("unsubscribe", $0)) }
    }

    /// `{"type":"subscribe","symbol":"AAPL"}`.
    static func message(_ type: String, _ symbol: String) -> String {
        #"{"type":"\#(type)","symbol":\#(StreamJSONText.quoted(symbol))}"#
    }

    /// `.live` the first time the session does anything. The session is only created once the socket is
    /// open, and the hub subscribes as soon as a session opens, so this is as early as "connected" can be
    /// reported through a `StreamSessionMachine` (it has no start step).
    private mutating func announceLive() -> [StreamSessionAction] {
        guard !announcedLive else { return [] }
        announcedLive = true
        return [.emit(.live)]
    }

    private mutating func remove(_ symbols: Set<String>) {
        guard !symbols.isEmpty else { return }
        subscribedSet.subtract(symbols)
        subscribed.removeAll { symbols.contains($0) }
    }

    /// What an error message means. Finnhub documents neither its error texts nor which request one
    /// answers (reference §4.2, §7: [L]), so the mapping goes by words:
    /// - the key ("token", "api key", "unauthorized"): permanent, naming the variable to check;
    /// - a symbol limit ("too many symbols", "symbol limit"): subscribes get no acknowledgement, so the
    ///   newest subscribed symbol is refused; after k such errors the k newest are, which is right when
    ///   Finnhub refuses every subscribe past its limit;
    /// - a subscribed symbol named in the text: that symbol is unknown, the stream goes on;
    /// - anything else ends this connection (retryable), showing the message.
    private mutating func errorActions(_ message: String) -> (actions: [StreamSessionAction], ended: Bool) {
        // Redacted before it is cut, so no prefix of the key can survive.
        let text = VisibleText.escaped(Redaction.text(message, secretValues: secrets))
        let lowered = text.lowercased()
        if ["token", "api key", "apikey", "unauthorized", "unauthenticated"].contains(where: lowered.contains) {
            return ([.fail(.unauthorized(hint: credentialHint))], true)
        }
        if lowered.contains("symbol"), lowered.contains("too many") || lowered.contains("limit"), let newest = subscribed.last {
            remove([newest])
            return ([.emit(.symbolFailed(newest, .limitExceeded(Self.symbolLimit)))], false)
        }
        if let named = SymbolMention.find(in: text, among: subscribed) {
            remove([named])
            return ([.emit(.symbolFailed(named, .unknownSymbol(named)))], false)
        }
        return ([.fail(.badResponse("finnhub stream: error: \(text.prefix(120))"))], true)
    }
}
