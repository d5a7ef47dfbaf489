import Domain
import Foundation

/// A stop order's trigger printed: from now on it works as `worksAs` (a market or a limit order).
public struct PaperOrderTriggered: Sendable, Hashable, Codable {
    public var orderID: OrderID
    public var worksAs: OrderType
    /// The last trade that reached the stop.
    public var lastTrade: ExactDecimal
    public var time: Date

    public init(orderID: OrderID, worksAs: OrderType, lastTrade: ExactDecimal, time: Date) {
        self.orderID = orderID
        self.worksAs = worksAs
        self.lastTrade = lastTrade
        self.time = time
    }
}
