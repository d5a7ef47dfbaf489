import Domain
import Foundation

/// Fuzzes the quote line a follower reads from `quote.<broker>.<symbol>` (`BusQuoteWire`), both ways.
///
/// The whole input is read as a quote line. Then the same bytes, drawn as choices (Support/FuzzBytes),
/// make a `CommonQuote` the leader could write: any prices in range, absent fields, any volume, and a time
/// that is either a whole microsecond in the wire's range or any `Date` at all.
///
/// Invariants: nothing traps; a refusal is short printable ASCII; a quote read has the key's symbol,
/// writes back as a canonical line (printable ASCII, seven fields) that reads to the same quote and
/// writes to the same bytes; a quote written with a time in range reads back, and, when its time was a
/// whole microsecond, reads back equal to itself; one out of range is refused for its time alone.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(fuzzInput(data, size))
    switch BusQuoteWire.decode(input, symbol: "BRK.B") {
    case .success(let quote):
        fuzzInvariant(quote.symbol == "BRK.B", "the symbol is the key's, not \(quote.symbol.debugDescription)")
        checkWrittenQuote(quote, exact: true)
    case .failure(let error):
        checkRefusal(error)
    }
    checkWrittenQuote(drawQuote(FuzzBytes(input)))
    return 0
}

/// A quote the leader could write, from the fuzzer's bytes; `exact` when its time is a whole microsecond.
func drawQuote(_ bytes: FuzzBytes) -> (CommonQuote, exact: Bool) {
    var bytes = bytes
    func price() -> ExactDecimal {
        ExactDecimal(units: Int64(bytes.int(in: -Int(ExactDecimal.max.units)...Int(ExactDecimal.max.units))))
    }
    func maybe<T>(_ make: () -> T) -> T? { bytes.bool() ? make() : nil }
    let last = price()
    let bid = maybe(price), ask = maybe(price), close = maybe(price)
    let volume: Int64? = maybe { Int64(bytes.int(in: 0...Int.max)) }
    let exact = !bytes.bool()
    let timestamp = exact
        ? BusQuoteWire.date(microseconds: Int64(bytes.int(in: -Int(BusQuoteWire.timeLimit)...Int(BusQuoteWire.timeLimit))))
        : Date(timeIntervalSinceReferenceDate: Double(bitPattern: bytes.word()))
    return (CommonQuote(symbol: "^GSPC", last: last, timestamp: timestamp, bid: bid, ask: ask, previousClose: close, volume: volume), exact)
}

func checkWrittenQuote(_ drawn: (CommonQuote, exact: Bool)) {
    checkWrittenQuote(drawn.0, exact: drawn.exact)
}

/// `quote` written, read and written again: the same bytes, and the same quote when `exact`.
func checkWrittenQuote(_ quote: CommonQuote, exact: Bool) {
    let line = BusQuoteWire.encode(quote)
    fuzzInvariant(line.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "a line not printable ASCII: \(line)")
    fuzzInvariant(line.split(separator: 0x20, omittingEmptySubsequences: false).count == 7, "a line without 7 fields: \(text(line))")
    switch BusQuoteWire.decode(line, symbol: quote.symbol) {
    case .success(let read):
        if exact { fuzzInvariant(read == quote, "\(text(line)) reads as \(read), written from \(quote)") }
        let again = BusQuoteWire.encode(read)
        fuzzInvariant(again == line, "\(text(line)) read and written again is \(text(again))")
        fuzzInvariant(BusQuoteWire.decode(again, symbol: quote.symbol) == .success(read), "\(text(again)) reads differently the second time")
    case .failure(let error):
        let time = BusQuoteWire.microseconds(quote.timestamp)
        fuzzInvariant(!exact && abs(time) > BusQuoteWire.timeLimit, "\(text(line)) written but refused: \(error)")
        fuzzInvariant(error.description == "a quote's time is beyond the years 1748 to 2191", "\(text(line)) refused for \(error)")
    }
}

func checkRefusal(_ error: BusWireError) {
    let message = error.description
    fuzzInvariant(!message.isEmpty && message.utf8.count <= 80, "refusal of \(message.utf8.count) bytes: \(message.debugDescription)")
    fuzzInvariant(message.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "refusal not printable ASCII: \(message.debugDescription)")
}

func text(_ line: [UInt8]) -> String {
    String(decoding: line, as: UTF8.self).debugDescription
}
