/// What one evaluation did: the alerts that fired, and the book with their new standing (fired alerts
/// disarmed, cleared ones rearmed). `changed` lists every alert whose standing moved, to be saved.
public struct AlertEvaluation: Sendable, Hashable {
    public var book: AlertBook
    public var firings: [AlertFiring]
    public var changed: [Alert]

    public init(book: AlertBook, firings: [AlertFiring] = [], changed: [Alert] = []) {
        self.book = book
        self.firings = firings
        self.changed = changed
    }
}
