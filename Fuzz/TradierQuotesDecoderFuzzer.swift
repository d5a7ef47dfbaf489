import Domain
import Foundation
import Networking

/// Differential fuzzing of `TradierQuotesDecoder`, the hand-written scanner that reads a
/// `GET /v1/markets/quotes` body ten times faster than JSONDecoder. Its promise is that whatever it
/// accepts it reads exactly as JSONDecoder does, and anything else it hands over: so for every input the
/// fast path either declines (nil) or gives JSONDecoder's envelope, quote for quote and field for
/// field; and `decode` (fast path, else JSONDecoder) always answers as the JSONDecoder path alone does,
/// with the same error when it fails. A crash, a read past the input (AddressSanitizer) or a
/// difference stops the fuzzer with the body's difference spelled out.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let response = HTTPResponse(status: 200, body: Data(fuzzInput(data, size)))
    let old = Result { () throws(BrokerError) in try TradierResponseDecoding.decode(TradierQuotesEnvelope.self, from: response) }
    if let fast = TradierQuotesDecoder.fastEnvelope(response) {
        switch old {
        case .success(let old):
            fuzzInvariant(old.quoteList == fast.quoteList, "the fast path's quotes differ: \(fast.quoteList) ≠ JSONDecoder's \(old.quoteList)")
            fuzzInvariant(
                old.unmatchedSymbolList == fast.unmatchedSymbolList,
                "the fast path's unmatched symbols differ: \(fast.unmatchedSymbolList) ≠ \(old.unmatchedSymbolList)")
            fuzzInvariant((old.quotes == nil) == (fast.quotes == nil), "the fast path and JSONDecoder disagree on whether `quotes` is there")
        case .failure(let error):
            fuzzInvariant(false, "the fast path accepted a body JSONDecoder rejects (\(error))")
        }
    }
    let new = Result { () throws(BrokerError) in try TradierQuotesDecoder.decode(response) }
    switch (old, new) {
    case (.success(let old), .success(let new)):
        fuzzInvariant(old.quoteList == new.quoteList && old.unmatchedSymbolList == new.unmatchedSymbolList, "decode differs from JSONDecoder")
    case (.failure(let old), .failure(let new)):
        fuzzInvariant(old == new, "decode fails otherwise than JSONDecoder: \(new) ≠ \(old)")
    case (.success, .failure(let new)):
        fuzzInvariant(false, "decode failed where JSONDecoder succeeded: \(new)")
    case (.failure(let old), .success):
        fuzzInvariant(false, "decode succeeded where JSONDecoder failed: \(old)")
    }
    return 0
}
