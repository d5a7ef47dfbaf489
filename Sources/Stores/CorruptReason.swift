import Foundation

/// Why a watchlist file cannot be used, in a few words for the status line.
struct CorruptReason: Error, Sendable, Hashable, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }

    init(decodingError error: any Error) {
        guard let error = error as? DecodingError else {
            self.init("not valid JSON")
            return
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            self.init("not valid JSON")
        case .dataCorrupted(let context):
            self.init("bad value at \(Self.path(context.codingPath))")
        case .keyNotFound(let key, _):
            self.init("missing \"\(key.stringValue)\"")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            self.init(context.codingPath.isEmpty ? "not a JSON object" : "wrong type at \(Self.path(context.codingPath))")
        @unknown default:
            self.init("not a watchlist")
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
