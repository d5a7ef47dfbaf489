import Foundation

/// The user's alerts, in the order they were set. Edits are plain functions of the book, so the
/// watchlist store applies them to whatever another instance last wrote.
public struct AlertBook: Sendable, Hashable {
    public private(set) var alerts: [Alert]
    /// Ids held by entries of the file that could not be read: a new alert never takes one, so fixing
    /// such an entry by hand cannot make two alerts share an id.
    public private(set) var reservedIDs: Set<Int>

    public init(alerts: [Alert] = [], reservedIDs: Set<Int> = []) {
        self.alerts = alerts
        self.reservedIDs = reservedIDs
    }

    public var isEmpty: Bool { alerts.isEmpty }

    public subscript(id id: Int) -> Alert? {
        alerts.first { $0.id == id }
    }

    /// Adds `draft` as a new armed alert with the next free id; dates are kept to the whole second, as
    /// the file keeps them, so what is saved reads back equal.
    @discardableResult
    public mutating func add(_ draft: AlertDraft, at now: Date) -> Alert {
        let alert = Alert(
            id: (alerts.map(\.id) + reservedIDs).max().map { $0 + 1 } ?? 1, symbol: draft.symbol, condition: draft.condition,
            scope: draft.scope, rearm: draft.rearm, createdAt: Self.wholeSecond(now))
        alerts.append(alert)
        return alert
    }

    /// Removes the alert; returns it, or nil when it was gone already.
    @discardableResult
    public mutating func remove(id: Int) -> Alert? {
        guard let index = alerts.firstIndex(where: { $0.id == id }) else { return nil }
        return alerts.remove(at: index)
    }

    /// Puts back where each alert stands (armed, last fired) for those still in the book: what one
    /// instance's evaluation changed, applied to what the file holds now. Alerts deleted meanwhile stay deleted.
    public mutating func adoptStates(of changed: [Alert]) {
        for alert in changed {
            guard let index = alerts.firstIndex(where: { $0.id == alert.id }) else { continue }
            alerts[index].isArmed = alert.isArmed
            alerts[index].lastFired = alert.lastFired
        }
    }

    /// Replaces the alert with the same id (the evaluator's result).
    mutating func replace(_ alert: Alert) {
        guard let index = alerts.firstIndex(where: { $0.id == alert.id }) else { return }
        alerts[index] = alert
    }

    /// Symbols that have at least one alert.
    public var symbols: Set<String> { Set(alerts.map(\.symbol)) }

    /// Symbols with an alert that may still fire (armed, or rearming): the app follows them even when
    /// the list on screen does not show them.
    public var symbolsThatCanFire: Set<String> {
        Set(alerts.filter { $0.isArmed || $0.rearm == .whenCleared }.map(\.symbol))
    }

    public static func wholeSecond(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970).rounded(.down))
    }
}
