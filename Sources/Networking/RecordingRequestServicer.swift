import Domain
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Locking

/// A decorator that sends through another servicer and writes each exchange, redacted, to a folder as
/// `0001-GET-v1-markets-quotes.json`, numbered in the order the answers arrive. `ReplayingRequestServicer`
/// serves the folder back.
public final class RecordingRequestServicer: RequestServicer {
    public let directory: URL
    private let wrapped: any RequestServicer
    private let state: Locked<State>

    private struct State {
        var lastNumber: Int
        var failures: [String] = []
    }

    /// Creates `directory` (mode 0700) if needed. Numbering continues after any recordings already in
    /// it, so recording twice into one folder never overwrites.
    public init(wrapping wrapped: any RequestServicer, directory: URL) throws(RecordingError) {
        self.wrapped = wrapped
        self.directory = directory
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotCreateDirectory(directory.path, reason: error.localizedDescription)
        }
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        state = Locked(State(lastNumber: existing.compactMap(Self.number(ofFileNamed:)).max() ?? 0))
    }

    public func send(_ request: HTTPRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse {
        let response = try await wrapped.send(request, secretNames: secretNames)
        let exchange = RecordedExchange(request: request, secretNames: secretNames, response: response)
        save(exchange, method: request.method, path: request.url.path)
        return response
    }

    /// Files that could not be written, as "name: reason". Recording is a side effect: a full disk must
    /// not turn a good answer into an error, but the caller can say that the recording is incomplete.
    public var failures: [String] { state.withLock { $0.failures } }

    /// `0001-GET-v1-markets-quotes.json`: the path's characters outside [A-Za-z0-9._] become `-`.
    public static func fileName(number: Int, method: String, path: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._")
        var slug = String(path.map { allowed.contains($0) ? $0 : "-" })
        while slug.contains("--") { slug = slug.replacingOccurrences(of: "--", with: "-") }
        slug = String(slug.trimmingCharacters(in: CharacterSet(charactersIn: "-")).prefix(80))
        let verb = String(method.uppercased().filter { $0.isLetter })
        let numberText = String(repeating: "0", count: max(0, 4 - String(number).count)) + String(number)
        return [numberText, verb.isEmpty ? "GET" : verb, slug].filter { !$0.isEmpty }.joined(separator: "-") + ".json"
    }

    static func number(ofFileNamed name: String) -> Int? {
        guard name.hasSuffix(".json") else { return nil }
        return Int(name.prefix(while: { $0.isNumber }))
    }

    private func save(_ exchange: RecordedExchange, method: String, path: String) {
        // Numbering and writing under one lock: the files on disk are always a gapless prefix.
        state.withLock { state in
            let name = Self.fileName(number: state.lastNumber + 1, method: method, path: path)
            do {
                try Self.writePrivately(try exchange.encoded(), to: directory.appendingPathComponent(name))
                state.lastNumber += 1
            } catch {
                state.failures.append("\(name): \(error.localizedDescription)")
            }
        }
    }

    /// Written to a temporary name with mode 0600, then renamed: a reader never sees half a file.
    private static func writePrivately(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw RecordingError.cannotWrite(url.lastPathComponent, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { buffer -> Int in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return -1
                }
                offset += count
            }
            return offset
        }
        let writeErrno = errno
        close(descriptor)
        guard written == data.count else {
            unlink(temporary.path)
            throw RecordingError.cannotWrite(url.lastPathComponent, reason: String(cString: strerror(writeErrno)))
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw RecordingError.cannotWrite(url.lastPathComponent, reason: reason)
        }
    }
}
