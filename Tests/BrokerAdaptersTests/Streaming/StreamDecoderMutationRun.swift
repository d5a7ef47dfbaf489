import Domain
import Foundation
import TestSupport

/// A seeded random-mutation run over a stream decoder, shared by the Polygon and Alpaca decoder tests:
/// each iteration takes a seed frame, applies one to four byte-level mutations (flip, replace with a
/// JSON-significant byte, insert, delete, duplicate a range, truncate) and decodes the result. A crash
/// fails the whole test run; the outcome counts the rest. The loop yields its pool thread every few
/// milliseconds (`TimeSlice`).
struct StreamDecoderMutationRun {
    struct Outcome {
        var decoded = 0
        var threw = 0
        /// Mutants Foundation parses as a JSON array but the decoder threw on.
        var rejectedValidArrays: [String] = []
    }

    var seeds: [String]
    var seed: UInt64
    var iterations: Int

    func run(_ decode: (String) throws -> Int) async -> Outcome {
        var random = SplitMix64(seed: seed)
        var outcome = Outcome()
        var slice = TimeSlice()
        let significant = Array(#"{}[]",:"\0123456789.-+eEtnulfrs "#.utf8)
        for _ in 0..<iterations {
            await slice.yieldIfDue()
            var bytes = Array(seeds[Int(random.next() % UInt64(seeds.count))].utf8)
            for _ in 0...(random.next() % 4) {
                guard !bytes.isEmpty else { break }
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 6 {
                case 0: bytes[at] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
                case 1: bytes[at] = significant[Int(random.next() % UInt64(significant.count))]
                case 2: bytes.insert(significant[Int(random.next() % UInt64(significant.count))], at: at)
                case 3: bytes.remove(at: at)
                case 4:
                    let end = min(bytes.count, at + 1 + Int(random.next() % 40))
                    bytes.insert(contentsOf: bytes[at..<end], at: Int(random.next() % UInt64(bytes.count)))
                default: bytes.removeSubrange(at...)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                _ = try decode(text)
                outcome.decoded += 1
            } catch {
                outcome.threw += 1
                if Self.isStrictJSONArray(text) {
                    outcome.rejectedValidArrays.append(text)
                }
            }
        }
        return outcome
    }

    /// Foundation's parser as the oracle, minus what it tolerates beyond RFC 8259: a trailing comma
    /// before `]` or `}` (swift-foundation accepts it; the broker never sends it and the decoder refuses it).
    static func isStrictJSONArray(_ text: String) -> Bool {
        guard (try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [Any] else { return false }
        return text.range(of: #",\s*[\]}]"#, options: .regularExpression) == nil
    }

}
