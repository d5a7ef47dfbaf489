import Foundation

/// Foundation's parser as the oracle for decoders whose frames are one JSON value of any kind (Finnhub's
/// objects, Tradier's line-broken objects), where `StreamDecoderMutationRun`'s own oracle only knows
/// arrays. Like it, it refuses what swift-foundation tolerates beyond RFC 8259: a trailing comma before
/// `]` or `}`.
enum StrictJSONOracle {
    static func isStrictJSON(_ text: String) -> Bool {
        guard (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil else { return false }
        return text.range(of: #",\s*[\]}]"#, options: .regularExpression) == nil
    }
}
