import Foundation

/// How a frame is drawn, apart from what it shows.
public struct RenderOptions: Sendable, Hashable {
    /// false: no foreground or background colors, only bold, dim, reverse and underline
    /// (NO_COLOR, monochrome terminals).
    public var color: Bool
    /// The header clock's time zone; tests pin it so snapshots do not depend on the machine.
    public var timeZone: TimeZone

    public init(color: Bool = true, timeZone: TimeZone = .current) {
        self.color = color
        self.timeZone = timeZone
    }
}
