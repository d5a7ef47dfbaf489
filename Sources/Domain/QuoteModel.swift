import Foundation

/// The minimal shape every quote has, whatever its source.
public protocol QuoteModel: Sendable {
    var symbol: String { get }
    var last: Double { get }
    var timestamp: Date { get }
}
