// swift-tools-version:6.0
// CommonBroker: a live, multi-broker terminal watchlist.
// No package dependencies by design: system C libraries only, wrapped in local module maps.
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "commonbroker",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "commonbroker", targets: ["commonbroker"]),
    ],
    targets: [
        // C shim over the system's wide-character ncurses (apt: libncurses-dev). The module map links
        // ncursesw itself: pkg-config's cflags (-D_XOPEN_SOURCE=600) are rejected by SwiftPM with a
        // warning, and shim.h defines the feature macros the wide-character API needs.
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]),
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        // glibc's <malloc.h>, for the app's start-up memory settings (CommonBrokerApp's ProcessMemory).
        .systemLibrary(name: "CGlibcMalloc"),
        // glibc's ppoll(2), for waits to the nanosecond: the WebSocket I/O thread's paced reads (Networking's
        // WebSocketPoller) and the UI thread's frames (TerminalCurses' CursesEventLoop).
        .systemLibrary(name: "CGlibcPoll"),

        // Layers, innermost first. Each depends only on layers beneath it.
        // The project's lock, `Locked`: a POSIX mutex, which ThreadSanitizer understands (`make test-tsan`).
        .target(name: "Locking", swiftSettings: strict),
        // How text from outside is shown safely (escaped), the same on screen, stderr and in print.
        .target(name: "TextSafety", swiftSettings: strict),
        .target(name: "Domain", dependencies: ["TextSafety", "Locking"], swiftSettings: strict),
        .target(
            name: "Networking",
            dependencies: ["Domain", "TextSafety", "COpenSSL", "Locking", .target(name: "CGlibcPoll", condition: .when(platforms: [.linux]))],
            swiftSettings: strict
        ),
        .target(name: "BrokerAdapters", dependencies: ["Domain", "Networking", "TextSafety", "Locking"], swiftSettings: strict),
        .target(name: "MarketDataHub", dependencies: ["Domain", "Locking"], swiftSettings: strict),
        .target(name: "Bus", dependencies: ["Domain", "Networking", "Locking"], swiftSettings: strict),
        .target(name: "Stores", dependencies: ["Domain", "TextSafety", "Locking"], swiftSettings: strict),
        // The paper broker: its pure rules (when an order fills and at what price, the cash and FIFO lots a
        // fill moves, why an order is refused), its ledger's records and state, and the actor that fills
        // from a `MarketFeed` and keeps everything in a `Journal` (Stores).
        .target(name: "PaperTrading", dependencies: ["Domain", "Stores", "TextSafety", "Locking"], swiftSettings: strict),
        // The terminal's own vocabulary, free of quotes and number formats: keys and sizes (what the update
        // loop receives as events), cells, styles, the screen buffer and its diff, character widths and
        // safe text. Curses needs nothing else.
        // Its buffer writes run for every cell of every frame from TerminalUI: whole-module code that
        // other modules may inline, or the 1,000-row frame takes four times as long.
        .target(name: "TerminalKit", dependencies: ["TextSafety", "Locking"], swiftSettings: strict + [
            .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release)),
        ]),
        .target(name: "Interactors", dependencies: ["Domain", "MarketDataHub", "Stores", "TerminalKit", "TextSafety", "Locking"], swiftSettings: strict),
        .target(name: "TerminalUI", dependencies: ["Domain", "Interactors", "Stores", "TerminalKit", "TextSafety"], swiftSettings: strict),
        .target(
            name: "TerminalCurses",
            dependencies: ["CNcursesw", "TerminalKit", "Locking", .target(name: "CGlibcPoll", condition: .when(platforms: [.linux]))],
            swiftSettings: strict
        ),
        .target(
            name: "CommonBrokerApp",
            dependencies: ["Domain", "TextSafety", "Networking", "BrokerAdapters", "MarketDataHub", "Bus", "Stores", "PaperTrading", "Interactors", "TerminalKit", "TerminalUI", "TerminalCurses", "Locking",
                .target(name: "CGlibcMalloc", condition: .when(platforms: [.linux]))],
            swiftSettings: strict
        ),
        .executableTarget(name: "commonbroker", dependencies: ["CommonBrokerApp"], swiftSettings: strict),
        // `make bench`: the hub against the reference design it replaced, the renderer, the decoders, start-up,
        // the ledger's replay, the paper broker's replay and P&L, the bus through a real nats-server.
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["MarketDataHub", "Domain", "Networking", "Bus", "TerminalKit", "TerminalUI", "TerminalCurses", "Interactors", "BrokerAdapters", "Stores", "PaperTrading", "Locking"],
            swiftSettings: strict
        ),

        // Test helpers shared by test targets: a manual clock, the fixture HTTP server, a subprocess runner.
        .target(name: "TestSupport", dependencies: ["Locking"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"], swiftSettings: strict),
        .testTarget(name: "LockingTests", dependencies: ["Locking"], swiftSettings: strict),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "TextSafety", "Locking"], swiftSettings: strict),
        .testTarget(name: "NetworkingTests", dependencies: ["Networking", "Domain", "TestSupport", "Locking"], swiftSettings: strict),
        .testTarget(name: "BrokerAdaptersTests", dependencies: ["BrokerAdapters", "Networking", "Domain", "TestSupport", "Locking"], swiftSettings: strict),
        .testTarget(name: "BusTests", dependencies: ["Bus", "Networking", "Domain", "TestSupport", "Locking"], swiftSettings: strict),
        .testTarget(name: "MarketDataHubTests", dependencies: ["MarketDataHub", "Domain", "TestSupport", "Locking"], swiftSettings: strict),
        .testTarget(name: "StoresTests", dependencies: ["Stores", "Domain", "Locking"], swiftSettings: strict),
        .testTarget(name: "PaperTradingTests", dependencies: ["PaperTrading", "Domain", "Stores", "TestSupport", "Locking"], swiftSettings: strict),
        .testTarget(name: "InteractorsTests", dependencies: ["Interactors", "MarketDataHub", "Stores", "Domain", "TerminalKit", "Locking", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "Interactors", "Domain", "Stores", "TerminalKit"], exclude: ["Snapshots"], swiftSettings: strict),
        .testTarget(name: "TerminalCursesTests", dependencies: ["TerminalCurses", "TerminalKit", "Locking"], swiftSettings: strict),
        .testTarget(
            name: "CommonBrokerAppTests",
            dependencies: ["CommonBrokerApp", "Domain", "BrokerAdapters", "Stores", "TerminalUI"],
            resources: [],
            swiftSettings: strict
        ),
        // Drives the real binary inside tmux; needs `swift build` to have produced it.
        // The kill -9 test reads the paper ledger it leaves with the Journal, in process.
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "Domain", "PaperTrading", "Stores"], swiftSettings: strict),
    ]
)
