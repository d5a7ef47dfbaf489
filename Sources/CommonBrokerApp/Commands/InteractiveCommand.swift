import Bus
import Domain
import Foundation
import Interactors
import Locking
import TerminalCurses
import TerminalKit
import TerminalUI

/// The full-screen watchlist: curses on its own thread, the app runtime on an actor, keys, sizes and
/// ticks in between as events.
enum InteractiveCommand {
    /// The first of LC_ALL, LC_CTYPE and LANG that is set decides, as for every program.
    static func localeIsUTF8(_ environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }

    /// The streams' decoding tasks and the hub's upstream readers run on one thread of their own, where a
    /// decoded batch reaching the hub is a queue append instead of a wake-up of the pool's other thread
    /// (see DedicatedThreadExecutor). The tasks they start prefer it through the task-local, bound before
    /// anything subscribes (the paper broker does, in `TradingDesk.start`), so every upstream the hub opens
    /// in this run is on it. The update loop (`AppRuntime`) runs there too, beside the hub that feeds it;
    /// its saves (an flock and two fsyncs), which must not hold up the streams, the hub, the paper broker
    /// or a bus this process leads, run on a thread of their own (see `AppRuntime`).
    static func run(_ app: AppComposition) async -> Int32 {
        let marketData = DedicatedThreadExecutor(name: "market data")
        return await PreferredTaskExecutor.$current.withValue(marketData) { await runWatchlist(app, on: marketData) }
    }

    private static func runWatchlist(_ app: AppComposition, on marketData: DedicatedThreadExecutor) async -> Int32 {
        let box = ViewStateBox(WatchlistViewState(isDemo: app.isDemo, securityWarning: app.securityWarning))
        let baseOptions = RenderOptions(
            color: app.colorEnabled,
            colorOverrides: app.config.theme.colors,
            unicode: Self.localeIsUTF8(ProcessInfo.processInfo.environment),
            market: .standard,
            brokerColorOverrides: app.config.theme.brokerColors
        )
        // The table's scroll position and where the last frame put rows and tabs (for clicks) belong
        // to the frames, not to the app state (TableViewport, WatchlistLayout). The color depth is
        // known once curses has started, before the first frame.
        // The table's cache of rows drawn on earlier frames (WatchlistTableCache) is frame state too.
        let frames = Locked((
            viewport: TableViewport(), layout: WatchlistLayout(), depth: ColorDepth?.none, cache: WatchlistTableCache(), shown: RowsOnScreen?.none))
        // Quotes only for rows off the screen draw no frame.
        let gate = FrameGate()
        let (events, input) = AsyncStream<AppEvent>.makeStream()
        let depthSource = Locked<TerminalSession?>(nil)
        let session = TerminalSession(
            options: TerminalSessionOptions(color: app.colorEnabled, mouse: app.config.mouse, frameClock: app.frameClock),
            frame: { size, now in
                gate.frameBegins()
                return frames.withLock { frames in
                    if frames.depth == nil { frames.depth = depthSource.withLock { $0?.colorDepth } }
                    var options = baseOptions
                    options.colorDepth = frames.depth ?? .basic
                    let view = box.current
                    let buffer = WatchlistScreen.render(
                        view, size: size, now: now, options: options, viewport: &frames.viewport, layout: &frames.layout,
                        cache: &frames.cache)
                    frames.shown = RowsOnScreen(view, layout: frames.layout, now: now, previous: frames.shown)
                    gate.frameDrew(frames.shown)
                    return buffer
                }
            },
            onKey: { key in
                guard case .mouse(let event) = key else {
                    input.yield(.key(key))
                    return
                }
                if let action = frames.withLock({ MouseMapping.action(for: event, layout: $0.layout) }) {
                    input.yield(.mouse(action))
                }
            },
            onResize: { input.yield(.resize($0)) }
        )
        depthSource.withLock { $0 = session }
        let desk = await TradingDesk.start(app)
        let notifier = app.config.alerts.desktop ? DesktopNotifier.find(environment: ProcessInfo.processInfo.environment) : nil
        let live = LiveAppState(AppState(
                brokers: app.hub.brokers,
                book: app.watchlist.book,
                settings: AppState.Settings(
                    isDemo: app.isDemo,
                    isSaved: app.watchlist.file != nil,
                    securityWarning: app.securityWarning,
                    staleAfter: TimeInterval(app.config.staleAfterSeconds),
                    highlightFor: Double(app.config.highlightMilliseconds) / 1000,
                    accountBrokers: app.accountServices.map(\.branding),
                    tradingBrokers: desk.brokers,
                    holdingsSources: [app.holdings.branding],
                    alertBell: app.config.alerts.bell,
                    alertDesktop: app.config.alerts.desktop && notifier != nil,
                    keys: app.config.keys,
                    theme: app.config.theme.name,
                    columns: app.config.columns,
                    outlierBasisPoints: app.config.crossBroker.outlierBasisPoints,
                    sparklineMinutes: app.config.sparklineMinutes,
                    historyBackfill: app.historyBackfill
                ),
                initialMessages: app.notes + desk.notes,
                terminalSize: session.size
            ))
        box.show(live)
        let runtime = AppRuntime(
            live: live,
            executor: marketData,
            feed: app.hub,
            accountServices: app.accountServices,
            trading: desk.services,
            activity: desk.activity,
            watchlist: app.watchlist,
            bell: { session.ringBell() },
            // Starting the notifier's process is off the runtime's thread, the market-data thread.
            notify: { notification in
                guard let notifier else { return }
                Task.detached { notifier.send(notification) }
            },
            // Quitting stops the session; the wait below sees it.
            quit: { session.stop() },
            // The frame reads `live` when it is drawn.
            changed: { session.setNeedsDisplay() },
            changedRows: { update in
                if gate.needsFrame(for: update, at: Date()) { session.setNeedsDisplay() }
            },
            timePassed: { session.setNeedsTimedRedraw() }
        )

        do {
            try session.start()
        } catch {
            StandardError.write("commonbroker: \(error)")
            await desk.stop()
            await app.hub.shutdown()
            await app.bus?.close()
            return 1
        }
        await runtime.send(.resize(session.size))
        await runtime.start()
        let status = await serve(session: session, runtime: runtime, events: events, input: input, routes: app.routes)
        await runtime.stop()
        depthSource.withLock { $0 = nil }
        await desk.stop()
        // The hub closes every session first, so a leader lets go of its leases before the bus closes.
        await app.hub.shutdown()
        await app.bus?.close()
        return status
    }

    /// How long from `now` until the next tick: 5 ms past the next whole second, so that the frame it
    /// draws reads the new second (a fixed second's sleep drifted, and the clock skipped a second now
    /// and then).
    static func tickDelay(from now: Date) -> Duration {
        let seconds = now.timeIntervalSince1970
        let delay = (seconds.rounded(.down) + 1 - seconds) + 0.005
        return .nanoseconds(Int64((delay * 1_000_000_000).rounded()))
    }

    /// Hands keys, routes and ticks to the runtime until the session stops, which decides the status.
    private static func serve(
        session: TerminalSession, runtime: AppRuntime, events: AsyncStream<AppEvent>,
        input: AsyncStream<AppEvent>.Continuation, routes: BusRouteBoard
    ) async -> Int32 {
        await withTaskGroup(of: Int32.self) { group in
            group.addTask {
                for await event in events {
                    await runtime.send(event)
                }
                return 0
            }
            group.addTask {
                // The footer says how each broker's quotes arrive when there is a bus.
                for await (broker, route) in routes.changes() {
                    input.yield(.route(brokerID: broker, route))
                }
                return 0
            }
            group.addTask {
                // Info messages fade: the state hears the time pass. Just after each whole second: the
                // header's clock and the ages move on then, and while only rows off the screen stream,
                // the tick is what draws them.
                while !Task.isCancelled {
                    try? await Task.sleep(for: tickDelay(from: Date()))
                    input.yield(.tick)
                }
                return 0
            }
            group.addTask {
                // SIGINT/SIGTERM/SIGHUP end the session from the UI thread; the terminal is already restored.
                switch await session.waitUntilStopped() {
                case .stopped: return 0
                case .signal(let number): return number == SIGINT ? 0 : 128 + number
                }
            }
            // The session stopping (quit, or a signal) decides the status.
            let first = await group.next() ?? 0
            input.finish()
            session.stop()
            group.cancelAll()
            return first
        }
    }
}
