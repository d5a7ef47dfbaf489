import Domain
import Foundation
import Locking

/// Serves a folder written by `RecordingRequestServicer`, without a network: a request gets the response
/// of the recording with the same method, path and query (secrets redacted, query order ignored; the host
/// is not compared, so a recording made against any server replays for any base URL).
///
/// Several recordings of one request are a sequence: each send returns the next, then the last one
/// forever, so a recorded polling session replays its prices in order and then holds still.
public final class ReplayingRequestServicer: RequestServicer {
    public let directory: URL
    private let recordings: [Loaded]
    /// Names redacted in any recording: applied to every incoming request too, so a request whose caller
    /// forgot to declare a secret still matches (and still never shows it in the no-match error).
    private let recordedSecretNames: Set<String>
    /// How many times each request has been answered, by its key.
    private let served = Locked<[Key: Int]>([:])

    private struct Loaded: Sendable {
        let file: String
        let method: String
        let path: String
        let query: [QueryItem]
        let response: HTTPResponse
    }

    private struct QueryItem: Hashable, Comparable, Sendable {
        let name: String
        let value: String
        static func < (lhs: Self, rhs: Self) -> Bool { (lhs.name, lhs.value) < (rhs.name, rhs.value) }
    }

    private struct Key: Hashable, Sendable {
        let method: String
        let path: String
        let query: [QueryItem]
    }

    /// Reads every `*.json` in `directory`, in file-name order (the recording's numbering).
    public init(directory: URL) throws(RecordingError) {
        self.directory = directory
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
                .sorted()
        } catch {
            throw .cannotReadDirectory(directory.path, reason: error.localizedDescription)
        }
        guard !names.isEmpty else { throw .noRecordings(directory.path) }

        var exchanges: [(file: String, exchange: RecordedExchange)] = []
        for name in names {
            let data: Data
            do {
                data = try Data(contentsOf: directory.appendingPathComponent(name))
            } catch {
                throw .corruptRecording(file: name, reason: "unreadable: \(error.localizedDescription)")
            }
            do {
                exchanges.append((name, try JSONDecoder().decode(RecordedExchange.self, from: data)))
            } catch {
                throw .corruptRecording(file: name, reason: Self.describe(error))
            }
        }
        let secretNames = Set(exchanges.flatMap { $0.exchange.request.secretNames })
        var loaded: [Loaded] = []
        for (file, exchange) in exchanges {
            // `<redacted>` is not valid in a URL; parsers that refuse it rather than encode it get it encoded.
            let urlText = exchange.request.url
            let parsed = URL(string: urlText) ?? URL(string: urlText.replacingOccurrences(of: Redaction.placeholder, with: "%3Credacted%3E"))
            guard let url = parsed, url.scheme != nil else {
                throw .corruptRecording(file: file, reason: "request.url is not a URL")
            }
            guard let response = exchange.httpResponse else {
                throw .corruptRecording(file: file, reason: "response.body is not valid \(exchange.response.bodyEncoding)")
            }
            let key = Self.key(method: exchange.request.method, url: url, secretNames: secretNames)
            loaded.append(Loaded(file: file, method: key.method, path: key.path, query: key.query, response: response))
        }
        recordings = loaded
        recordedSecretNames = secretNames
    }

    public func send(_ request: HTTPRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        let url = request.url
        let names = secretNames.union(recordedSecretNames)
        let key = Self.key(method: request.method, url: url, secretNames: names)
        let matches = recordings.filter { $0.method == key.method && $0.path == key.path && $0.query == key.query }
        guard !matches.isEmpty else {
            let query = Redaction.queryItems(of: url, secretNames: names)
                .map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            let target = key.path + (query.isEmpty ? "" : "?" + query)
            throw .network("no recording for \(key.method) \(target); record one with --record DIR")
        }
        let index = served.withLock { served -> Int in
            let count = served[key, default: 0]
            served[key] = count + 1
            return min(count, matches.count - 1)
        }
        return matches[index].response
    }

    /// The recording files in the order they are replayed.
    public var files: [String] { recordings.map(\.file) }

    private static func key(method: String, url: URL, secretNames: Set<String>) -> Key {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.path ?? url.path
        let query = Redaction.queryItems(of: url, secretNames: secretNames)
            .map { QueryItem(name: $0.name, value: $0.value) }
            .sorted()
        return Key(method: method.uppercased(), path: path.isEmpty ? "/" : path, query: query)
    }

    /// A decoding error in a few words: which field, and what was wrong.
    private static func describe(_ error: any Error) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            let parent = path(context.codingPath)
            return "missing \(parent.isEmpty ? "" : parent + ".")\(key.stringValue)"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "wrong type at \(path(context.codingPath))"
        case .dataCorrupted(let context)?:
            return context.codingPath.isEmpty ? "not valid JSON" : "bad value at \(path(context.codingPath))"
        default:
            return "not a recording"
        }
    }
}
