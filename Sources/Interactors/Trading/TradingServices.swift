import Domain
import Stores

/// One trading broker's capabilities, as the runtime uses them: each effect reaches only the capability
/// it needs (`place(_:at:)` takes `some OrderService`).
public struct TradingServices: Sendable {
    /// Nil for a source of positions only (holdings kept elsewhere).
    public let orders: (any OrderService)?
    public let positions: any PositionService
    /// Balances, where the broker reports them.
    public let accounts: (any AccountService)?

    public init(orders: (any OrderService)?, positions: any PositionService, accounts: (any AccountService)?) {
        self.orders = orders
        self.positions = positions
        self.accounts = accounts
    }

    public var branding: ServiceBranding { positions.branding }

    /// Positions, every order and the balances, asked at once; the first failure is the answer.
    public func portfolio() async -> Result<PortfolioSnapshot, BrokerError> {
        async let positions = Self.capture { () async throws(BrokerError) in try await self.positions.positions() }
        async let orders = Self.capture { () async throws(BrokerError) -> [Order] in
            guard let orders = self.orders else { return [] }
            return try await orders.orders(status: .all)
        }
        async let balances = Self.capture { () async throws(BrokerError) -> [AccountBalance] in
            guard let accounts = self.accounts else { return [] }
            return try await accounts.balances()
        }
        switch (await positions, await orders, await balances) {
        case (.success(let positions), .success(let orders), .success(let balances)):
            return .success(PortfolioSnapshot(positions: positions, orders: orders, balances: balances))
        case (.failure(let error), _, _), (_, .failure(let error), _), (_, _, .failure(let error)):
            return .failure(error)
        }
    }

    public static func place(_ request: OrderRequest, at service: some OrderService) async -> Result<Order, BrokerError> {
        await capture { () async throws(BrokerError) in try await service.place(request) }
    }

    public static func cancel(_ id: OrderID, at service: some OrderService) async -> Result<Void, BrokerError> {
        await capture { () async throws(BrokerError) in try await service.cancel(id: id) }
    }

    private static func capture<T>(_ body: () async throws(BrokerError) -> T) async -> Result<T, BrokerError> {
        do throws(BrokerError) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
