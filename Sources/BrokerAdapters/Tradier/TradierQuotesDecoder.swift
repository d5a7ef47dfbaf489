import Domain
import Foundation
import Networking

/// Decodes the body of `GET /v1/markets/quotes` (reference §1.2) into the same `TradierQuotesEnvelope`
/// that `TradierResponseDecoding.decode(TradierQuotesEnvelope.self, from:)` makes, more than ten times
/// faster: JSONDecoder managed 30–55k quotes/s on one core (swift-corelibs-foundation, Swift 6.3), this
/// 650–850k on the same noisy machine; the benchmark wants 500k.
///
/// Two paths. The fast one reads the body with `TradierQuotesCursor`, a strict one-pass byte scanner
/// in the manner of the stream decoders' `StreamJSONScanner`, but only while every byte is on the
/// ordinary road: strictly well-formed JSON (unknown keys included), keys and strings without escapes, numbers that are plain decimals
/// (at most 18 significant digits, no exponent, no leading zero, prices within ±90,000,000,000; integers at most 18 digits), numbers
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
        guard !TradierResponseDecoding.mayBeErrorBody(response.body) else { return nil }
        let keys = Self.keys
        return response.body.withUnsafeBytes { raw in
            var cursor = TradierQuotesCursor(raw.bindMemory(to: UInt8.self))
            do {
                let envelope = try envelope(&cursor, keys)
                guard cursor.isAtEnd else { return nil }
                return envelope
            } catch {
                return nil
            }
        }
    }

    private typealias Name = StreamJSONScanner.Name
    private typealias OffRoad = TradierQuotesCursor.OffRoad

    /// Keys, loaded once per body: a `static let` read per comparison costs a `swift_once` call each time.
    private struct Keys {
        let quotes = Name("quotes")
        let quote = Name("quote")
        let unmatchedSymbols = TradierQuotesCursor.unmatchedSymbols
        let symbol = Name("symbol")
        /// `TradierQuote`'s fields in the order Tradier sends them (reference §1.2), so the next key is
        /// usually the one after the last; its position is the field's number in `quote(_:_:)`.
        let fields: [Name] = [
            Name("symbol"), Name("description"), Name("exch"), Name("type"), Name("last"), Name("change"), Name("volume"),
            Name("open"), Name("high"), Name("low"), Name("close"), Name("bid"), Name("ask"), TradierQuotesCursor.changePercentage,
            Name("average_volume"), Name("last_volume"), Name("trade_date"), Name("prevclose"), Name("week_52_high"),
            Name("week_52_low"), Name("bidsize"), Name("bidexch"), Name("bid_date"), Name("asksize"), Name("askexch"),
            Name("ask_date"), Name("root_symbols"),
        ]
    }

    private static let keys = Keys()

    // MARK: Envelope

    private static func envelope(_ cursor: inout TradierQuotesCursor, _ keys: Keys) throws(OffRoad) -> TradierQuotesEnvelope {
        var envelope = TradierQuotesEnvelope()
        var seen = false
        try members(&cursor) { (cursor: inout TradierQuotesCursor, key: Name) throws(OffRoad) in
            guard key ~= keys.quotes else { return try cursor.skip(depth: 0) }
            guard !seen else { throw cursor.offRoad() }
            seen = true
            switch cursor.peek() {
            case UInt8(ascii: "{"): envelope.quotes = TradierNullable(try quotes(&cursor, keys))
            // `null` leaves the optional nil, as `decodeIfPresent` does; `"null"` is Tradier's empty value.
            case UInt8(ascii: "n"): try cursor.literal("null")
            case UInt8(ascii: "\""):
                guard try cursor.isNullString() else { throw cursor.offRoad() }
                envelope.quotes = TradierNullable(nil)
            default: throw cursor.offRoad()
            }
        }
        return envelope
    }

    private static func quotes(_ cursor: inout TradierQuotesCursor, _ keys: Keys) throws(OffRoad) -> TradierQuotesEnvelope.Quotes {
        var quotes = TradierQuotesEnvelope.Quotes()
        var seenQuote = false
        var seenUnmatched = false
        try members(&cursor) { (cursor: inout TradierQuotesCursor, key: Name) throws(OffRoad) in
            switch key {
            case keys.quote:
                guard !seenQuote else { throw cursor.offRoad() }
                seenQuote = true
                quotes.quote = try quoteList(&cursor, keys)
            case keys.unmatchedSymbols:
                guard !seenUnmatched else { throw cursor.offRoad() }
                seenUnmatched = true
                quotes.unmatchedSymbols = try unmatchedSymbols(&cursor, keys)
            default:
                try cursor.skip(depth: 0)
            }
        }
        return quotes
    }

    /// `quote`: an object for one symbol, an array for several, `"null"` for none (reference §1.2, §1.3).
    private static func quoteList(_ cursor: inout TradierQuotesCursor, _ keys: Keys) throws(OffRoad) -> OneOrMany<TradierQuote>? {
        switch cursor.peek() {
        case UInt8(ascii: "{"):
            return OneOrMany([try quote(&cursor, keys)])
        case UInt8(ascii: "["):
            try cursor.expect(UInt8(ascii: "["))
            var list: [TradierQuote] = []
            if cursor.consume(UInt8(ascii: "]")) { return OneOrMany(list) }
            // A full quote is about 600 bytes; reserving spares the regrowths.
            list.reserveCapacity(min(cursor.bytes.count / 400 + 1, 1_000))
            repeat {
                guard cursor.peek() == UInt8(ascii: "{") else { throw cursor.offRoad() }
                list.append(try quote(&cursor, keys))
            } while try cursor.another(before: UInt8(ascii: "]"))
            return OneOrMany(list)
        case UInt8(ascii: "n"):
            try cursor.literal("null")
            return nil
        case UInt8(ascii: "\""):
            guard try cursor.isNullString() else { throw cursor.offRoad() }
            return OneOrMany([])
        default:
            throw cursor.offRoad()
        }
    }

    private static func unmatchedSymbols(
        _ cursor: inout TradierQuotesCursor, _ keys: Keys
    ) throws(OffRoad) -> TradierNullable<TradierQuotesEnvelope.UnmatchedSymbols>? {
        switch cursor.peek() {
        case UInt8(ascii: "{"):
            break
        case UInt8(ascii: "n"):
            try cursor.literal("null")
            return nil
        case UInt8(ascii: "\""):
            guard try cursor.isNullString() else { throw cursor.offRoad() }
            return TradierNullable(nil)
        default:
            throw cursor.offRoad()
        }
        var unmatched = TradierQuotesEnvelope.UnmatchedSymbols()
        var seen = false
        try members(&cursor) { (cursor: inout TradierQuotesCursor, key: Name) throws(OffRoad) in
            guard key ~= keys.symbol else { return try cursor.skip(depth: 0) }
            guard !seen else { throw cursor.offRoad() }
            seen = true
            switch cursor.peek() {
            case UInt8(ascii: "["):
                try cursor.expect(UInt8(ascii: "["))
                var symbols: [String] = []
                if !cursor.consume(UInt8(ascii: "]")) {
                    repeat {
                        guard cursor.peek() == UInt8(ascii: "\"") else { throw cursor.offRoad() }
                        symbols.append(try cursor.string())
                    } while try cursor.another(before: UInt8(ascii: "]"))
                }
                unmatched.symbol = OneOrMany(symbols)
            case UInt8(ascii: "\""):
                // One symbol is a bare string; the string "null" is an empty list, as `OneOrMany` reads it.
                let symbol = try cursor.string()
                unmatched.symbol = OneOrMany(symbol == "null" ? [] : [symbol])
            case UInt8(ascii: "n"):
                try cursor.literal("null")
            default:
                throw cursor.offRoad()
            }
        }
        return TradierNullable(unmatched)
    }

    // MARK: Quote

    private static func quote(_ cursor: inout TradierQuotesCursor, _ keys: Keys) throws(OffRoad) -> TradierQuote {
        var quote = TradierQuote(symbol: "")
        // One bit per field: a key sent twice goes to JSONDecoder, whose choice between them is its own.
        var seen: UInt32 = 0
        var expected = 0
        let fields = keys.fields
        // The members' loop written out rather than through `members(_:_:)`: a quote is 27 members, and
        // the closure's call and captures cost about 25 instructions each.
        try cursor.expect(UInt8(ascii: "{"))
        var another = !cursor.consume(UInt8(ascii: "}"))
        while another {
            let key = try cursor.key()
            var field = expected
            if expected >= fields.count || !(key ~= fields[expected]) {
                field = fields.firstIndex(where: { $0 ~= key }) ?? fields.count
            }
            if field == fields.count {
                // A key no field reads.
                try cursor.skip(depth: 0)
            } else {
                expected = field + 1
                guard seen & 1 << field == 0 else { throw cursor.offRoad() }
                seen |= 1 << field
                switch field {
                case 0:
                    guard cursor.peek() == UInt8(ascii: "\"") else { throw cursor.offRoad() }
                    quote.symbol = try cursor.string()
                case 1: quote.description = try optionalString(&cursor)
                case 2: quote.exchange = try optionalString(&cursor)
                case 3: quote.type = try optionalString(&cursor)
                case 4: quote.last = try flexibleExactDecimal(&cursor)
                case 5: quote.change = try flexibleExactDecimal(&cursor)
                case 6: quote.volume = try flexibleInt64(&cursor)
                case 7: quote.open = try flexibleExactDecimal(&cursor)
                case 8: quote.high = try flexibleExactDecimal(&cursor)
                case 9: quote.low = try flexibleExactDecimal(&cursor)
                case 10: quote.close = try flexibleExactDecimal(&cursor)
                case 11: quote.bid = try flexibleExactDecimal(&cursor)
                case 12: quote.ask = try flexibleExactDecimal(&cursor)
                case 13: quote.changePercentage = try flexibleExactDecimal(&cursor)
                case 14: quote.averageVolume = try flexibleInt64(&cursor)
                case 15: quote.lastVolume = try flexibleInt64(&cursor)
                case 16: quote.tradeDate = try flexibleInt64(&cursor)
                case 17: quote.previousClose = try flexibleExactDecimal(&cursor)
                case 18: quote.week52High = try flexibleExactDecimal(&cursor)
                case 19: quote.week52Low = try flexibleExactDecimal(&cursor)
                case 20: quote.bidSize = try flexibleInt64(&cursor)
                case 21: quote.bidExchange = try optionalString(&cursor)
                case 22: quote.bidDate = try flexibleInt64(&cursor)
                case 23: quote.askSize = try flexibleInt64(&cursor)
                case 24: quote.askExchange = try optionalString(&cursor)
                case 25: quote.askDate = try flexibleInt64(&cursor)
                default: quote.rootSymbols = try optionalString(&cursor)
                }
            }
            another = try cursor.another(before: UInt8(ascii: "}"))
        }
        // JSONDecoder throws `keyNotFound` for a quote without a symbol.
        guard seen & 1 != 0 else { throw cursor.offRoad() }
        return quote
    }

    // MARK: Values

    /// A `String?` field: a string or `null`, as Codable reads it.
    @inline(__always)
    private static func optionalString(_ cursor: inout TradierQuotesCursor) throws(OffRoad) -> String? {
        switch cursor.peek() {
        case UInt8(ascii: "\""): return try cursor.string()
        case UInt8(ascii: "n"): try cursor.literal("null"); return nil
        default: throw cursor.offRoad()
        }
    }

    /// `FlexibleExactDecimal`: a number, `null`, a numeric string or an empty string (nil inside). `null`
    /// makes the optional itself nil: `decodeIfPresent` never calls `init(from:)` for it. A string with a
    /// leading zero (`"01.5"`) is off the road: `ExactDecimal(parsing:)` refuses it, so JSONDecoder fails.
    @inline(__always)
    private static func flexibleExactDecimal(_ cursor: inout TradierQuotesCursor) throws(OffRoad) -> FlexibleExactDecimal? {
        switch cursor.peek() {
        case UInt8(ascii: "\""):
            guard let number = try cursor.numericString(leadingZeros: false) else { return FlexibleExactDecimal(nil) }
            guard let value = number.exactDecimal else { throw cursor.offRoad() }
            return FlexibleExactDecimal(value)
        case UInt8(ascii: "n"):
            try cursor.literal("null")
            return nil
        default:
            guard let value = try cursor.number().exactDecimal else { throw cursor.offRoad() }
            return FlexibleExactDecimal(value)
        }
    }

    /// `FlexibleInt64`: an integer, `null`, a numeric string or an empty string (nil inside).
    @inline(__always)
    private static func flexibleInt64(_ cursor: inout TradierQuotesCursor) throws(OffRoad) -> FlexibleInt64? {
        switch cursor.peek() {
        case UInt8(ascii: "\""):
            guard let number = try cursor.numericString(leadingZeros: true) else { return FlexibleInt64(nil) }
            guard let value = number.int64 else { throw cursor.offRoad() }
            return FlexibleInt64(value)
        case UInt8(ascii: "n"):
            try cursor.literal("null")
            return nil
        default:
            guard let value = try cursor.number().int64 else { throw cursor.offRoad() }
            return FlexibleInt64(value)
        }
    }

    // MARK: Structure

    /// Calls `member` with each key of the object that comes next; `member` consumes the value.
    @inline(__always)
    private static func members(
        _ cursor: inout TradierQuotesCursor, _ member: (inout TradierQuotesCursor, Name) throws(OffRoad) -> Void
    ) throws(OffRoad) {
        try cursor.expect(UInt8(ascii: "{"))
        if cursor.consume(UInt8(ascii: "}")) { return }
        repeat {
            let key = try cursor.key()
            try member(&cursor, key)
        } while try cursor.another(before: UInt8(ascii: "}"))
    }
}
