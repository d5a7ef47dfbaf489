import Domain

extension AppState {
    /// The update of a market event that changed nothing on the screen but the rows of its quotes'
    /// symbols, so the frame loop may skip a frame when none of them is on screen (`RowsOnScreen`);
    /// nil when the event may have changed more. Only the table in front, sorted by symbol (a sort by
    /// price moves rows), without the accounts panel, and only when the update raised no effect (an
    /// alert that moved fires, logs, says so and saves) and carries no broker's state or frame count
    /// (the footer, a failure's message).
    public func rowsChanged(by event: AppEvent, raising effects: [AppEffect]) -> MarketUpdate? {
        guard case .market(let update) = event, effects.isEmpty, update.brokerStates.isEmpty, update.skippedFrames.isEmpty,
              sort == .symbol, front == .watchlist, accounts == nil else { return nil }
        return update
    }
}
