import Foundation
import Interactors
import TerminalCurses
import TerminalUI
import TerminalKit

/// The full-screen watchlist: curses on its own thread, the interactor on an actor, keys in between.
enum InteractiveCommand {
    private enum Input: Sendable {
        case key(KeyPress)
        case resize(ScreenSize)
    }

    static func run(_ app: AppComposition) async -> Int32 {
        let box = ViewStateBox(WatchlistViewState(isDemo: app.isDemo, securityWarning: app.securityWarning))
        let renderOptions = RenderOptions(
            color: app.colorEnabled,
            upColor: TerminalColor(app.config.theme.up),
            downColor: TerminalColor(app.config.theme.down)
        )
        let (inputs, input) = AsyncStream<Input>.makeStream()
        let session = TerminalSession(
            options: TerminalSessionOptions(color: app.colorEnabled),
            frame: { size, now in WatchlistScreen.render(box.current, size: size, now: now, options: renderOptions) },
            onKey: { input.yield(.key($0)) },
            onResize: { input.yield(.resize($0)) }
        )
        let interactor = WatchlistInteractor(
            feed: app.hub,
            quoteServices: app.quoteServices,
            accountServices: app.accountServices,
            watchlist: app.watchlist,
            isDemo: app.isDemo,
            securityWarning: app.securityWarning,
            staleAfter: TimeInterval(app.config.staleAfterSeconds),
            highlightFor: Double(app.config.highlightMilliseconds) / 1000,
            initialMessages: app.notes,
            publish: { state in
                box.set(state)
                session.setNeedsDisplay()
            }
        )

        do {
            try session.start()
        } catch {
            StandardError.write("commonbroker: \(error)")
            await app.hub.shutdown()
            return 1
        }
        await interactor.start()

        let status = await withTaskGroup(of: Int32.self) { group in
            group.addTask {
                // The table's height depends on the terminal, the accounts panel and the status line; the
                // interactor is told whenever it changes, so paging moves by what is on screen. (The view
                // itself keeps the selection on screen whatever the interactor last heard.)
                var size = session.size
                var visibleRows = -1
                func syncViewport() async {
                    let rows = WatchlistScreen.visibleTableRows(for: size, state: box.current, now: Date())
                    guard rows != visibleRows else { return }
                    visibleRows = rows
                    _ = await interactor.handle(.viewportChanged(visibleRows: rows))
                }
                await syncViewport()
                for await event in inputs {
                    switch event {
                    case .key(let key):
                        if let action = KeyMap.action(for: key, mode: box.current.mode),
                           await interactor.handle(action) == .quit {
                            session.stop()
                            return 0
                        }
                    case .resize(let newSize):
                        size = newSize
                    }
                    await syncViewport()
                }
                session.stop()
                return 0
            }
            group.addTask {
                // SIGINT/SIGTERM/SIGHUP end the session from the UI thread; the terminal is already restored.
                switch await session.waitUntilStopped() {
                case .stopped: return 0
                case .signal(let number): return number == SIGINT ? 0 : 128 + number
                }
            }
            let first = await group.next() ?? 0
            input.finish()
            session.stop()
            group.cancelAll()
            return first
        }
        await interactor.stop()
        await app.hub.shutdown()
        return status
    }
}
