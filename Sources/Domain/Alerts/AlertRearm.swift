/// What an alert does after it fires.
public enum AlertRearm: Sendable, Hashable {
    /// Fires once and stays quiet until deleted.
    case once
    /// Fires again, but only after the price that fired it no longer meets the condition: a price that
    /// sits above the line rings once, not on every tick.
    case whenCleared
}
