import Foundation

/// The minimal shape every quote has, whatever its source.
public protocol QuoteModel: Sendable {
    var symbol: String { get }
    var last: ExactDecimal { get }
    var timestamp: Date { get }
}
