import Domain
import Foundation
import Locking
import TerminalUI

/// Between the frames and the runtime: whether quotes that changed only their rows need a frame, by
/// what the last frame showed (`RowsOnScreen`).
///
/// Why the gate is open while a frame is drawn: a quote that comes after the frame took its view but
/// before it says what it showed must ask for the next frame if its row is on screen, and the gate
/// cannot say that yet. Once the frame is drawn, a quote whose rows it did not show needs no frame: it
/// changed nothing that frame shows, and whatever changes what is shown next (a key, a resize) asks
/// for a frame of its own.
final class FrameGate: Sendable {
    private let shown = Locked<RowsOnScreen?>(nil)

    /// Before a frame takes its view: until it is drawn, every change asks for a frame.
    func frameBegins() { shown.withLock { $0 = nil } }

    /// After the frame: what it showed of the table, nil for a screen in front (every change asks).
    func frameDrew(_ rows: RowsOnScreen?) { shown.withLock { $0 = rows } }

    func needsFrame(for update: MarketUpdate, at now: Date) -> Bool {
        shown.withLock { $0?.needsFrame(for: update, at: now) ?? true }
    }
}
