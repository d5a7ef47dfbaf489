import Domain
import Foundation
import Networking

/// Polygon's stream protocol (reference §2.2): wait for `connected`, send `auth`, and on `auth_success`
/// report `.live` and send the subscriptions asked for so far. Each symbol is subscribed as trades and
/// quotes (`T.AAPL,Q.AAPL`), batched into one message per hub call.
struct PolygonStreamStateMachine: StreamSessionMachine {
    enum Phase: Sendable, Hashable {
        case awaitingConnected
        case authenticating
        case live
    }

    static let brokerName = "polygon"
    typealias Decoder = PolygonStreamDecoder
    static let connectionLimit = "Polygon allows one connection per asset class: close the other session"

    private(set) var phase = Phase.awaitingConnected
    /// What the hub wants, sent once live, and the merged quotes of those symbols.
    private var book = StreamSubscribedQuoteBook()
    private let apiKey: String
    private let credentialHint: String

    var subscribed: Set<String> { book.symbols }

    init(apiKey: String, credentialHint: String) {
        self.apiKey = apiKey
        self.credentialHint = credentialHint
    }

    mutating func receive(_ events: ArraySlice<PolygonStreamEvent>, into actions: inout [StreamSessionAction]) {
        for event in events {
            switch event {
            case .status(let status, let message):
                switch status {
                case "connected":
                    guard phase == .awaitingConnected else { continue }
                    phase = .authenticating
                    actions.append(.send(#"{"action":"auth","params":\#(StreamJSONText.quoted(apiKey))}"#))
                case "auth_success":
                    guard phase == .authenticating else { continue }
                    phase = .live
                    actions.append(.emit(.live))
                    if !subscribed.isEmpty { actions.append(.send(Self.message("subscribe", subscribed))) }
                case "auth_failed":
                    actions.append(.fail(.unauthorized(hint: credentialHint)))
                    return
                case "max_connections":
                    actions.append(.fail(.limitExceeded(Self.connectionLimit)))
                    return
                case "auth_timeout", "error":
                    // Retryable: a timeout is ours to fix by reconnecting, and `error` has been seen for
                    // transient faults as well as plans without WebSocket access (reference §2.2).
                    // The key travels inside a message, so no layer below knows to redact it from server text.
                    let said = Redaction.text(message, secretValues: [apiKey]).prefix(120)
                    actions.append(.fail(.network("polygon stream: \(status): \(said)")))
                    return
                default:
                    // `success` acknowledges one subscribe or unsubscribe param; nothing to do.
                    continue
                }
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
        return [.send(Self.message("subscribe", added))]
    }

    mutating func unsubscribe(_ symbols: Set<String>) -> [StreamSessionAction] {
        let removed = book.remove(symbols)
        guard phase == .live, !removed.isEmpty else { return [] }
        return [.send(Self.message("unsubscribe", removed))]
    }

    /// `{"action":"subscribe","params":"T.AAPL,Q.AAPL,T.MSFT,Q.MSFT"}`, symbols sorted.
    static func message(_ action: String, _ symbols: Set<String>) -> String {
        let params = symbols.sorted().map { "T.\($0),Q.\($0)" }.joined(separator: ",")
        return #"{"action":"\#(action)","params":\#(StreamJSONText.quoted(params))}"#
    }
}
