import Domain
import Foundation
import Networking

/// Decodes the body of `GET /v1/markets/quotes` (reference §1.2) into the same `TradierQuotesEnvelope`
/// that `TradierResponseDecoding.decode(TradierQuotesEnvelope.self, from:)` makes, about ten times faster.
/// JSONDecoder managed about 54k quotes/s on one core (swift-corelibs-foundation, Swift 6.3); the
/// benchmark wants 500k.
///
/// Two paths. The fast one reads the body with `StreamJSONScanner`, but only while every byte is on the
/// ordinary road: well-formed JSON, keys and strings without escapes, numbers that are plain decimals
/// (at most 15 significant digits, no exponent, no leading zero; integers at most 18 digits), numbers
/// sent as strings in that plain form, each known key at most once, a `symbol` in every quote. The
/// moment anything else turns up (an error body, HTML, a trailing comma, `"1e3"`, a duplicate key, a
/// `\u` escape, …) it gives up and the whole body goes through the JSONDecoder path instead. So the
/// answer is always the one the Foundation path gives, value for value and error for error: the fast
/// path only ever accepts bodies whose meaning it knows exactly, and everything else is, by
/// construction, the old path (tests compare both on every fixture and on seeded mutants).
public enum TradierQuotesDecoder {
    /// The envelope, or the `.badResponse` the JSONDecoder path throws for this body.
    public static func decode(_ response: HTTPResponse) throws(BrokerError) -> TradierQuotesEnvelope {
        if let envelope = fastEnvelope(response) { return envelope }
        return try TradierResponseDecoding.decode(TradierQuotesEnvelope.self, from: response)
    }

    /// The envelope read by the scanner, or nil when the body needs the JSONDecoder path.
    static func fastEnvelope(_ response: HTTPResponse) -> TradierQuotesEnvelope? {
        // Tradier's error shapes, inside a 200 too, are reported by the old path (reference §1.4).
        guard TradierResponseDecoding.errorMessage(in: response) == nil else { return nil }
        return response.body.withUnsafeBytes { raw in
            var scanner = StreamJSONScanner(raw.bindMemory(to: UInt8.self))
            do {
                let envelope = try envelope(&scanner, names)
                guard scanner.isAtEnd else { return nil }
                return envelope
            } catch {
                return nil
            }
        }
    }

    private typealias Name = StreamJSONScanner.Name
    private typealias Failure = StreamJSONScanner.Failure

    /// Keys, loaded once per body: a `static let` read per comparison costs a `swift_once` call each time.
    private struct Names {
        let quotes = Name("quotes")
        let quote = Name("quote")
        let unmatchedSymbols = Names.unmatchedSymbolsKey
        let symbol = Name("symbol")
        let description = Name("description")
        let exchange = Name("exch")
        let type = Name("type")
        let last = Name("last")
        let change = Name("change")
        let volume = Name("volume")
        let open = Name("open")
        let high = Name("high")
        let low = Name("low")
        let close = Name("close")
        let bid = Name("bid")
        let ask = Name("ask")
        let changePercentage = Names.changePercentageKey
        let averageVolume = Name("average_volume")
        let lastVolume = Name("last_volume")
        let tradeDate = Name("trade_date")
        let previousClose = Name("prevclose")
        let week52High = Name("week_52_high")
        let week52Low = Name("week_52_low")
        let bidSize = Name("bidsize")
        let bidExchange = Name("bidexch")
        let bidDate = Name("bid_date")
        let askSize = Name("asksize")
        let askExchange = Name("askexch")
        let askDate = Name("ask_date")
        let rootSymbols = Name("root_symbols")

        /// The two keys longer than a packed `Name` holds (16 bytes) get names no packed key can have:
        /// a length byte of 0xFF.
        static let changePercentageKey = Name(low: 1, high: 0xFF << 56)
        static let unmatchedSymbolsKey = Name(low: 2, high: 0xFF << 56)
    }

    private static let names = Names()

    /// The longest nesting skipped inside an unknown key before giving the body to JSONDecoder.
    private static let maximumSkipDepth = 32

    // MARK: Envelope

    private static func envelope(_ scanner: inout StreamJSONScanner, _ names: Names) throws(Failure) -> TradierQuotesEnvelope {
        var envelope = TradierQuotesEnvelope()
        var seen = false
        try members(&scanner, names) { (scanner: inout StreamJSONScanner, key: Name) throws(Failure) in
            guard key ~= names.quotes else { return try skip(&scanner, depth: 0) }
            guard !seen else { throw giveUp(scanner, "duplicate key") }
            seen = true
            switch scanner.peek() {
            case UInt8(ascii: "{"): envelope.quotes = TradierNullable(try quotes(&scanner, names))
            // `null` leaves the optional nil, as `decodeIfPresent` does; `"null"` is Tradier's empty value.
            case UInt8(ascii: "n"): try null(&scanner)
            case UInt8(ascii: "\""):
                try nullString(&scanner)
                envelope.quotes = TradierNullable(nil)
            default: throw giveUp(scanner, "quotes is not an object")
            }
        }
        return envelope
    }

    private static func quotes(_ scanner: inout StreamJSONScanner, _ names: Names) throws(Failure) -> TradierQuotesEnvelope.Quotes {
        var quotes = TradierQuotesEnvelope.Quotes()
        var seenQuote = false
        var seenUnmatched = false
        try members(&scanner, names) { (scanner: inout StreamJSONScanner, key: Name) throws(Failure) in
            switch key {
            case names.quote:
                guard !seenQuote else { throw giveUp(scanner, "duplicate key") }
                seenQuote = true
                quotes.quote = try quoteList(&scanner, names)
            case names.unmatchedSymbols:
                guard !seenUnmatched else { throw giveUp(scanner, "duplicate key") }
                seenUnmatched = true
                quotes.unmatchedSymbols = try unmatchedSymbols(&scanner, names)
            default:
                try skip(&scanner, depth: 0)
            }
        }
        return quotes
    }

    /// `quote`: an object for one symbol, an array for several, `"null"` for none (reference §1.2, §1.3).
    private static func quoteList(_ scanner: inout StreamJSONScanner, _ names: Names) throws(Failure) -> OneOrMany<TradierQuote>? {
        switch scanner.peek() {
        case UInt8(ascii: "{"):
            return OneOrMany([try quote(&scanner, names)])
        case UInt8(ascii: "["):
            var list: [TradierQuote] = []
            try scanner.array { (scanner: inout StreamJSONScanner) throws(Failure) in
                guard scanner.peek() == UInt8(ascii: "{") else { throw giveUp(scanner, "a quote is not an object") }
                list.append(try quote(&scanner, names))
            }
            return OneOrMany(list)
        case UInt8(ascii: "n"):
            try null(&scanner)
            return nil
        case UInt8(ascii: "\""):
            try nullString(&scanner)
            return OneOrMany([])
        default:
            throw giveUp(scanner, "quote is not an object or array")
        }
    }

    private static func unmatchedSymbols(
        _ scanner: inout StreamJSONScanner, _ names: Names
    ) throws(Failure) -> TradierNullable<TradierQuotesEnvelope.UnmatchedSymbols>? {
        switch scanner.peek() {
        case UInt8(ascii: "{"):
            break
        case UInt8(ascii: "n"):
            try null(&scanner)
            return nil
        case UInt8(ascii: "\""):
            try nullString(&scanner)
            return TradierNullable(nil)
        default:
            throw giveUp(scanner, "unmatched_symbols is not an object")
        }
        var unmatched = TradierQuotesEnvelope.UnmatchedSymbols()
        var seen = false
        try members(&scanner, names) { (scanner: inout StreamJSONScanner, key: Name) throws(Failure) in
            guard key ~= names.symbol else { return try skip(&scanner, depth: 0) }
            guard !seen else { throw giveUp(scanner, "duplicate key") }
            seen = true
            switch scanner.peek() {
            case UInt8(ascii: "["):
                var symbols: [String] = []
                try scanner.array { (scanner: inout StreamJSONScanner) throws(Failure) in
                    guard scanner.peek() == UInt8(ascii: "\"") else { throw giveUp(scanner, "a symbol is not a string") }
                    symbols.append(try text(&scanner, plainString(&scanner)))
                }
                unmatched.symbol = OneOrMany(symbols)
            case UInt8(ascii: "\""):
                // One symbol is a bare string; the string "null" is an empty list, as `OneOrMany` reads it.
                let symbol = try text(&scanner, plainString(&scanner))
                unmatched.symbol = OneOrMany(symbol == "null" ? [] : [symbol])
            case UInt8(ascii: "n"):
                try null(&scanner)
            default:
                throw giveUp(scanner, "symbol is not a string or array")
            }
        }
        return TradierNullable(unmatched)
    }

    // MARK: Quote

    private static func quote(_ scanner: inout StreamJSONScanner, _ names: Names) throws(Failure) -> TradierQuote {
        var quote = TradierQuote(symbol: "")
        var hasSymbol = false
        // One bit per field: a key sent twice goes to JSONDecoder, whose choice between them is its own.
        var seen: UInt32 = 0
        try members(&scanner, names) { (scanner: inout StreamJSONScanner, key: Name) throws(Failure) in
            let bit: UInt32
            switch key {
            case names.symbol:
                bit = 1 << 0
                guard scanner.peek() == UInt8(ascii: "\"") else { throw giveUp(scanner, "symbol is not a string") }
                quote.symbol = try text(&scanner, plainString(&scanner))
                hasSymbol = true
            case names.description: bit = 1 << 1; quote.description = try optionalString(&scanner)
            case names.exchange: bit = 1 << 2; quote.exchange = try optionalString(&scanner)
            case names.type: bit = 1 << 3; quote.type = try optionalString(&scanner)
            case names.last: bit = 1 << 4; quote.last = try flexibleDouble(&scanner)
            case names.change: bit = 1 << 5; quote.change = try flexibleDouble(&scanner)
            case names.volume: bit = 1 << 6; quote.volume = try flexibleInt64(&scanner)
            case names.open: bit = 1 << 7; quote.open = try flexibleDouble(&scanner)
            case names.high: bit = 1 << 8; quote.high = try flexibleDouble(&scanner)
            case names.low: bit = 1 << 9; quote.low = try flexibleDouble(&scanner)
            case names.close: bit = 1 << 10; quote.close = try flexibleDouble(&scanner)
            case names.bid: bit = 1 << 11; quote.bid = try flexibleDouble(&scanner)
            case names.ask: bit = 1 << 12; quote.ask = try flexibleDouble(&scanner)
            case names.changePercentage: bit = 1 << 13; quote.changePercentage = try flexibleDouble(&scanner)
            case names.averageVolume: bit = 1 << 14; quote.averageVolume = try flexibleInt64(&scanner)
            case names.lastVolume: bit = 1 << 15; quote.lastVolume = try flexibleInt64(&scanner)
            case names.tradeDate: bit = 1 << 16; quote.tradeDate = try flexibleInt64(&scanner)
            case names.previousClose: bit = 1 << 17; quote.previousClose = try flexibleDouble(&scanner)
            case names.week52High: bit = 1 << 18; quote.week52High = try flexibleDouble(&scanner)
            case names.week52Low: bit = 1 << 19; quote.week52Low = try flexibleDouble(&scanner)
            case names.bidSize: bit = 1 << 20; quote.bidSize = try flexibleInt64(&scanner)
            case names.bidExchange: bit = 1 << 21; quote.bidExchange = try optionalString(&scanner)
            case names.bidDate: bit = 1 << 22; quote.bidDate = try flexibleInt64(&scanner)
            case names.askSize: bit = 1 << 23; quote.askSize = try flexibleInt64(&scanner)
            case names.askExchange: bit = 1 << 24; quote.askExchange = try optionalString(&scanner)
            case names.askDate: bit = 1 << 25; quote.askDate = try flexibleInt64(&scanner)
            case names.rootSymbols: bit = 1 << 26; quote.rootSymbols = try optionalString(&scanner)
            default:
                return try skip(&scanner, depth: 0)
            }
            guard seen & bit == 0 else { throw giveUp(scanner, "duplicate key") }
            seen |= bit
        }
        // JSONDecoder throws `keyNotFound` for a quote without a symbol.
        guard hasSymbol else { throw giveUp(scanner, "a quote has no symbol") }
        return quote
    }

    // MARK: Values

    /// A `String?` field: a string or `null`, as Codable reads it.
    private static func optionalString(_ scanner: inout StreamJSONScanner) throws(Failure) -> String? {
        switch scanner.peek() {
        case UInt8(ascii: "\""): return try text(&scanner, plainString(&scanner))
        case UInt8(ascii: "n"): try null(&scanner); return nil
        default: throw giveUp(scanner, "expected a string")
        }
    }

    /// `FlexibleDouble`: a number, `null`, a numeric string or an empty string (nil).
    private static func flexibleDouble(_ scanner: inout StreamJSONScanner) throws(Failure) -> FlexibleDouble? {
        switch scanner.peek() {
        case UInt8(ascii: "\""):
            let range = try plainString(&scanner)
            if range.isEmpty { return FlexibleDouble(nil) }
            return FlexibleDouble(try decimal(scanner, range, leadingZeros: true).double(scanner))
        case UInt8(ascii: "n"):
            // `decodeIfPresent` turns `null` into a nil optional without calling `init(from:)`.
            try null(&scanner)
            return nil
        default:
            return FlexibleDouble(try decimal(scanner, scalar(&scanner), leadingZeros: false).double(scanner))
        }
    }

    /// `FlexibleInt64`: an integer, `null`, a numeric string or an empty string (nil).
    private static func flexibleInt64(_ scanner: inout StreamJSONScanner) throws(Failure) -> FlexibleInt64? {
        switch scanner.peek() {
        case UInt8(ascii: "\""):
            let range = try plainString(&scanner)
            if range.isEmpty { return FlexibleInt64(nil) }
            return FlexibleInt64(try decimal(scanner, range, leadingZeros: true).int64(scanner))
        case UInt8(ascii: "n"):
            try null(&scanner)
            return nil
        default:
            return FlexibleInt64(try decimal(scanner, scalar(&scanner), leadingZeros: false).int64(scanner))
        }
    }

    /// `-?digits(.digits)?`, read exactly. No exponent: those go to JSONDecoder.
    private struct PlainDecimal {
        var negative = false
        var mantissa: Int64 = 0
        /// Digits after the leading zeros, fraction included.
        var significantDigits = 0
        var fractionDigits = 0
        var hasFraction = false

        /// Adds one digit; past 18 digits the mantissa stops growing and only the count goes on, which is
        /// enough to send the number to JSONDecoder.
        mutating func append(_ byte: UInt8) {
            let digit = Int64(byte &- UInt8(ascii: "0"))
            if significantDigits > 0 || digit != 0 {
                significantDigits += 1
                if significantDigits <= 18 { mantissa = mantissa * 10 + digit }
            }
        }

        /// Exact for at most 15 significant digits: the integer and the power of ten are both exact
        /// doubles, so one division rounds correctly, as `strtod` (and JSONDecoder) do.
        func double(_ scanner: StreamJSONScanner) throws(Failure) -> Double {
            guard significantDigits <= 15, fractionDigits < TradierQuotesDecoder.powersOfTen.count else {
                throw giveUp(scanner, "long number")
            }
            let value = Double(mantissa) / TradierQuotesDecoder.powersOfTen[fractionDigits]
            return negative ? -value : value
        }

        /// Integers only: `2868.0`, which JSONDecoder accepts as 2868, goes to JSONDecoder.
        func int64(_ scanner: StreamJSONScanner) throws(Failure) -> Int64 {
            guard !hasFraction, significantDigits <= 18 else { throw giveUp(scanner, "not a plain integer") }
            return negative ? -mantissa : mantissa
        }
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Reads `range` as a plain decimal. JSON forbids leading zeros (`01`); inside a string they are fine,
    /// since `Double("01")` and `Int64("01")` accept them.
    private static func decimal(_ scanner: StreamJSONScanner, _ range: Range<Int>, leadingZeros: Bool) throws(Failure) -> PlainDecimal {
        let bytes = scanner.bytes
        var number = PlainDecimal()
        var position = range.lowerBound
        let end = range.upperBound
        if position < end, bytes[position] == UInt8(ascii: "-") {
            number.negative = true
            position += 1
        }
        let integerStart = position
        while position < end, bytes[position] &- UInt8(ascii: "0") < 10 {
            number.append(bytes[position])
            position += 1
        }
        guard position > integerStart else { throw giveUp(scanner, "not a number") }
        if !leadingZeros, position - integerStart > 1, bytes[integerStart] == UInt8(ascii: "0") {
            throw giveUp(scanner, "leading zero")
        }
        if position < end, bytes[position] == UInt8(ascii: ".") {
            position += 1
            let fractionStart = position
            while position < end, bytes[position] &- UInt8(ascii: "0") < 10 {
                number.append(bytes[position])
                number.fractionDigits += 1
                position += 1
            }
            guard position > fractionStart else { throw giveUp(scanner, "not a number") }
            number.hasFraction = true
        }
        guard position == end else { throw giveUp(scanner, "not a plain decimal") }
        return number
    }

    /// The bytes of a number or literal, consumed.
    private static func scalar(_ scanner: inout StreamJSONScanner) throws(Failure) -> Range<Int> {
        _ = scanner.peek()
        let start = scanner.index
        try scanner.skipValue()
        return start..<scanner.index
    }

    /// `null`, exactly.
    private static func null(_ scanner: inout StreamJSONScanner) throws(Failure) {
        let range = try scalar(&scanner)
        guard UnsafeBufferPointer(rebasing: scanner.bytes[range]).elementsEqual("null".utf8) else {
            throw giveUp(scanner, "expected null")
        }
    }

    /// The string `"null"`, Tradier's empty collection (reference §1.3): nil. Any other string is a type
    /// mismatch for JSONDecoder.
    private static func nullString(_ scanner: inout StreamJSONScanner) throws(Failure) {
        let range = try plainString(&scanner)
        guard UnsafeBufferPointer(rebasing: scanner.bytes[range]).elementsEqual("null".utf8) else {
            throw giveUp(scanner, "expected an object")
        }
    }

    /// The range between the quotes of the string that comes next (consumed). Only strings JSONDecoder
    /// would read as the same bytes: no escapes, no control characters, valid UTF-8.
    private static func plainString(_ scanner: inout StreamJSONScanner) throws(Failure) -> Range<Int> {
        guard scanner.peek() == UInt8(ascii: "\"") else { throw giveUp(scanner, "expected a string") }
        let start = scanner.index + 1
        try scanner.skipValue()
        let end = scanner.index - 1
        let bytes = scanner.bytes
        var ascii = true
        for position in start..<end {
            let byte = bytes[position]
            if byte < 0x20 || byte == UInt8(ascii: "\\") { throw giveUp(scanner, "escape or control character") }
            if byte >= 0x80 { ascii = false }
        }
        if !ascii, String(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) == nil {
            throw giveUp(scanner, "invalid UTF-8")
        }
        return start..<end
    }

    private static func text(_ scanner: inout StreamJSONScanner, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[range]), as: UTF8.self)
    }

    // MARK: Structure

    /// Calls `member` with each key of the object that comes next; `member` consumes the value.
    private static func members(
        _ scanner: inout StreamJSONScanner, _ names: Names,
        _ member: (inout StreamJSONScanner, Name) throws(Failure) -> Void
    ) throws(Failure) {
        try scanner.expect(UInt8(ascii: "{"))
        if scanner.consume(UInt8(ascii: "}")) { return }
        repeat {
            let range = try plainString(&scanner)
            try scanner.expect(UInt8(ascii: ":"))
            try member(&scanner, key(scanner, range))
        } while try scanner.another(before: UInt8(ascii: "}"))
    }

    private static func key(_ scanner: StreamJSONScanner, _ range: Range<Int>) -> Name {
        if range.count <= 16 { return Name.pack(scanner.bytes, from: range.lowerBound, to: range.upperBound) }
        let key = UnsafeBufferPointer(rebasing: scanner.bytes[range])
        if key.elementsEqual("change_percentage".utf8) { return Names.changePercentageKey }
        if key.elementsEqual("unmatched_symbols".utf8) { return Names.unmatchedSymbolsKey }
        return .unknown
    }

    /// Skips a value no field reads (option fields, keys Tradier adds), checking it as strictly as
    /// JSONDecoder's parser would, since a body it rejects must not be accepted here.
    private static func skip(_ scanner: inout StreamJSONScanner, depth: Int) throws(Failure) {
        guard depth < maximumSkipDepth, let first = scanner.peek() else { throw giveUp(scanner, "expected a value") }
        switch first {
        case UInt8(ascii: "{"):
            try scanner.expect(first)
            if scanner.consume(UInt8(ascii: "}")) { return }
            repeat {
                _ = try plainString(&scanner)
                try scanner.expect(UInt8(ascii: ":"))
                try skip(&scanner, depth: depth + 1)
            } while try scanner.another(before: UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            try scanner.array { (scanner: inout StreamJSONScanner) throws(Failure) in try skip(&scanner, depth: depth + 1) }
        case UInt8(ascii: "\""):
            _ = try plainString(&scanner)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let word = UnsafeBufferPointer(rebasing: scanner.bytes[try scalar(&scanner)])
            guard word.elementsEqual("true".utf8) || word.elementsEqual("false".utf8) || word.elementsEqual("null".utf8) else {
                throw giveUp(scanner, "expected a value")
            }
        default:
            // Exponents are valid here: the value is skipped, never converted.
            try number(scanner, scalar(&scanner))
        }
    }

    /// Checks JSON's number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private static func number(_ scanner: StreamJSONScanner, _ range: Range<Int>) throws(Failure) {
        let bytes = scanner.bytes
        var position = range.lowerBound
        let end = range.upperBound
        func digits() -> Int {
            let start = position
            while position < end, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
            return position - start
        }
        if position < end, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let integerDigits = digits()
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
            throw giveUp(scanner, "bad number")
        }
        if position < end, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw giveUp(scanner, "bad number") }
        }
        if position < end, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < end, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw giveUp(scanner, "bad number") }
        }
        guard position == end else { throw giveUp(scanner, "bad number") }
    }

    private static func giveUp(_ scanner: StreamJSONScanner, _ reason: String) -> Failure {
        Failure(offset: scanner.index, reason: reason)
    }
}
