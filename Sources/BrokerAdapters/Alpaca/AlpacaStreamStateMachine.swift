import Domain
import Foundation
import Networking

/// Alpaca's market-data stream protocol (reference §3.2): wait for `connected`, send `auth`, and on
/// `authenticated` report `.live` and send the subscriptions asked for so far. Each symbol is subscribed
/// to trades and quotes, batched into one message per hub call.
struct AlpacaStreamStateMachine: StreamSessionMachine {
    enum Phase: Sendable, Hashable {
        case awaitingConnected
        case authenticating
        case live
    }

    /// A subscribe or unsubscribe sent and not answered yet.
    enum Request: Sendable, Hashable {
        case subscribe(Set<String>)
        case unsubscribe
    }

    static let brokerName = "alpaca"
    typealias Decoder = AlpacaStreamDecoder
    static let connectionLimit = "Alpaca allows one connection per key: close the other session"
    static let symbolLimit = "Alpaca's symbol limit for your plan is reached: remove symbols from the watchlist"

    private(set) var phase = Phase.awaitingConnected
    /// What the hub wants and Alpaca has not refused, sent once live, and the merged quotes of those symbols.
    private var book = StreamSubscribedQuoteBook()
    /// Oldest first. Alpaca answers every subscribe and unsubscribe, in order, with a `subscription` list
    /// or an error; a 405 names no symbols, so this is how the refused batch is found.
    private(set) var pending: [Request] = []
    private let keyID: String
    private let secretKey: String
    private let credentialHint: String
    private let feed: String

    var subscribed: Set<String> { book.symbols }

    init(keyID: String, secretKey: String, credentialHint: String, feed: String) {
        self.keyID = keyID
        self.secretKey = secretKey
        self.credentialHint = credentialHint
        self.feed = feed
    }

    mutating func receive(_ events: ArraySlice<AlpacaStreamEvent>, into actions: inout [StreamSessionAction]) {
        for event in events {
            switch event {
            case .success(let message):
                if message == "connected", phase == .awaitingConnected {
                    phase = .authenticating
                    actions.append(.send(
                        #"{"action":"auth","key":\#(StreamJSONText.quoted(keyID)),"secret":\#(StreamJSONText.quoted(secretKey))}"#))
                } else if message == "authenticated", phase == .authenticating {
                    phase = .live
                    actions.append(.emit(.live))
                    if !subscribed.isEmpty { actions.append(sendSubscribe(subscribed)) }
                }
            case .error(let code, let message):
                guard code == 405 else {
                    actions.append(.fail(error(code: code, message: message)))
                    return
                }
                actions += refuseOldestRequest()
            case .subscription:
                if !pending.isEmpty { pending.removeFirst() }
            case .trade(let symbol, let price, let timestamp):
                if phase == .live, let quote = book.trade(symbol, price: price, at: timestamp) { actions.append(.emit(.quote(quote))) }
            case .quote(let symbol, let bid, let ask, let timestamp):
                if phase == .live, let quote = book.quote(symbol, bid: bid, ask: ask, at: timestamp) { actions.append(.emit(.quote(quote))) }
            }
        }
    }

    mutating func subscribe(_ symbols: Set<String>) -> [StreamSessionAction] {
        let added = book.add(symbols)
        guard phase == .live, !added.isEmpty else { return [] }
        return [sendSubscribe(added)]
    }

    mutating func unsubscribe(_ symbols: Set<String>) -> [StreamSessionAction] {
        let removed = book.remove(symbols)
        guard phase == .live, !removed.isEmpty else { return [] }
        pending.append(.unsubscribe)
        return [.send(Self.message("unsubscribe", removed))]
    }

    /// `{"action":"subscribe","trades":["AAPL","MSFT"],"quotes":["AAPL","MSFT"]}`, symbols sorted.
    static func message(_ action: String, _ symbols: Set<String>) -> String {
        let list = StreamJSONText.array(symbols.sorted())
        return #"{"action":"\#(action)","trades":\#(list),"quotes":\#(list)}"#
    }

    private mutating func sendSubscribe(_ symbols: Set<String>) -> StreamSessionAction {
        pending.append(.subscribe(symbols))
        return .send(Self.message("subscribe", symbols))
    }

    /// 405: the oldest unanswered subscribe was refused whole; the earlier subscriptions stay.
    private mutating func refuseOldestRequest() -> [StreamSessionAction] {
        guard !pending.isEmpty, case .subscribe(let symbols) = pending.removeFirst() else { return [] }
        return book.remove(symbols).sorted().map { .emit(.symbolFailed($0, .limitExceeded(Self.symbolLimit))) }
    }

    /// The session-ending error for an error code other than 405.
    private func error(code: Int, message: String) -> BrokerError {
        switch code {
        case 402: return .unauthorized(hint: credentialHint)
        case 406: return .limitExceeded(Self.connectionLimit)
        case 409: return .unauthorized(hint: "your Alpaca plan does not include the \(feed) feed: use the iex feed")
        default:
            // The rest (auth timeout, slow client, internal error, syntax) end this connection but
            // reconnecting may well fix them.
            // The keys travel inside a message, so no layer below knows to redact them from server text.
            let said = Redaction.text(message, secretValues: [keyID, secretKey]).prefix(120)
            return .network("alpaca stream: error \(code): \(said)")
        }
    }
}
