import TerminalKit

/// How a `TerminalSession` draws.
public struct TerminalSessionOptions: Sendable {
    /// False for `--no-color` or when `NO_COLOR` is set: styles keep bold/dim/reverse/underline only.
    public var color: Bool
    /// Frames beyond this rate are coalesced; the newest state is drawn on the next allowed frame.
    public var maxFramesPerSecond: Int
    /// The view is redrawn at least this often even without `setNeedsDisplay()`, because ages and
    /// change highlights depend on the time. `.zero` turns it off.
    public var idleRedrawInterval: Duration
    /// Ask the terminal for clicks and the wheel (`mouse: false` in the config says no: with mouse
    /// reporting on, selecting text in the terminal needs Shift).
    public var mouse: Bool
    /// Where the UI thread publishes its frames, for streams that read just before the next one. Its
    /// cap wins over `maxFramesPerSecond`, so the two always agree.
    public var frameClock: FrameClock?

    public init(
        color: Bool = true, maxFramesPerSecond: Int = 30, idleRedrawInterval: Duration = .milliseconds(500), mouse: Bool = false,
        frameClock: FrameClock? = nil
    ) {
        self.color = color
        self.frameClock = frameClock
        self.mouse = mouse
        self.maxFramesPerSecond = maxFramesPerSecond
        self.idleRedrawInterval = idleRedrawInterval
    }
}
