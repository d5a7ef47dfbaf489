import Dispatch
import Foundation
import Locking
import Testing
import Stores

/// Several stores (as in several running instances) on one directory.
@Suite struct WatchlistSharedFileTests {
    @Test func twoInstancesAddingDifferentSymbolsKeepBoth() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            let first = WatchlistStore(file: file, seed: ["AAPL"])
            let second = WatchlistStore(file: file, seed: ["AAPL"])
            _ = try first.load()
            _ = try second.load()

            #expect(try first.add(["NVDA"]) == ["NVDA"])
            #expect(try second.add(["TSLA"]) == ["TSLA"])

            #expect(try WatchlistFileContents.symbols(at: file.url) == ["AAPL", "NVDA", "TSLA"])
            #expect(second.symbols == ["AAPL", "NVDA", "TSLA"])
            #expect(first.symbols == ["AAPL", "NVDA"], "an instance learns of others' edits at its next edit or load")
            #expect(try first.add(["NVDA"]) == [])
            #expect(first.symbols == ["AAPL", "NVDA", "TSLA"])
        }
    }

    @Test func aRemovalDoesNotResurrectWhatAnotherInstanceRemoved() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            let first = WatchlistStore(file: file, seed: [])
            let second = WatchlistStore(file: file, seed: [])
            try first.add(["AAPL", "MSFT", "NVDA"])
            _ = try second.load()

            #expect(try first.remove("MSFT") == 1)
            #expect(try second.remove("MSFT") == nil, "already gone on disk")
            #expect(try second.remove("AAPL") == 0)

            #expect(try WatchlistFileContents.symbols(at: file.url) == ["NVDA"])
            #expect(second.symbols == ["NVDA"])
        }
    }

    @Test func concurrentInstancesAddingManySymbolsLoseNone() async throws {
        try await TemporaryDirectory.withAsync { dir async throws in
            let file = WatchlistFile(directory: dir.url)
            let instances = 4
            let perInstance = 25
            let stores = (0..<instances).map { _ in WatchlistStore(file: file, seed: ["SPY"]) }
            let failures = FailureLog()

            // Each instance on its own thread, as separate processes would be: the adds block on the file
            // lock, and blocking Swift's two cooperative threads would stall every other test.
            await withTaskGroup(of: Void.self) { group in
                for instance in 0..<instances {
                    group.addTask {
                        await Self.onOwnThread {
                            for n in 0..<perInstance {
                                do {
                                    let added = try stores[instance].add(["S\(instance)X\(n)"])
                                    if added != ["S\(instance)X\(n)"] { failures.record("instance \(instance) added \(added)") }
                                } catch {
                                    failures.record("\(error)")
                                }
                            }
                        }
                    }
                }
            }

            #expect(failures.entries == [])
            let onDisk = try WatchlistFileContents.symbols(at: file.url)
            let expected = Set(["SPY"] + (0..<instances).flatMap { i in (0..<perInstance).map { "S\(i)X\($0)" } })
            #expect(onDisk.count == expected.count)
            #expect(Set(onDisk) == expected)
            for instance in 0..<instances {
                let own = onDisk.filter { $0.hasPrefix("S\(instance)X") }
                #expect(own == (0..<perInstance).map { "S\(instance)X\($0)" }, "each instance's adds keep their order")
            }
            #expect(try TemporaryDirectory.listing(dir.url) == ["watchlist.json", "watchlist.lock"], "no temp files left")
        }
    }

    @Test func oneStoreSharedByManyThreadsLosesNoEdit() async throws {
        try await TemporaryDirectory.withAsync { dir async throws in
            let store = WatchlistStore(file: WatchlistFile(directory: dir.url), seed: [])
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        for n in 0..<10 { _ = try? store.add(["T\(task)N\(n)"]) }
                    }
                }
            }
            #expect(store.symbols.count == 80)
            #expect(Set(try WatchlistFileContents.symbols(at: store.file!.url)) == Set(store.symbols))
        }
    }
}

/// Failures collected from worker threads, reported once they are joined.
extension WatchlistSharedFileTests {
    static func onOwnThread(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                work()
                done.resume()
            }.start()
        }
    }
}

private final class FailureLog: Sendable {
    private let recorded = Locked<[String]>([])

    func record(_ failure: String) {
        recorded.withLock { $0.append(failure) }
    }

    var entries: [String] { recorded.withLock { $0 } }
}
