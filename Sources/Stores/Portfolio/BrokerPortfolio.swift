import Domain
import Foundation

/// One trading broker as the positions and orders screens know it: the last answer it gave, or why it
/// could not give one (the last good answer is kept beside the error).
public struct BrokerPortfolio: Sendable, Hashable {
    public let branding: ServiceBranding
    public internal(set) var snapshot: PortfolioSnapshot?
    /// Why the last fetch failed (outside text: escape it before showing).
    public internal(set) var error: String?
    public internal(set) var isLoading: Bool
    public internal(set) var updatedAt: Date?

    public init(branding: ServiceBranding, snapshot: PortfolioSnapshot? = nil, error: String? = nil, isLoading: Bool = false, updatedAt: Date? = nil) {
        self.branding = branding
        self.snapshot = snapshot
        self.error = error
        self.isLoading = isLoading
        self.updatedAt = updatedAt
    }

    public var positions: [Position] { snapshot?.positions ?? [] }
    public var orders: [Order] { snapshot?.orders ?? [] }
    public var balances: [AccountBalance] { snapshot?.balances ?? [] }
}
