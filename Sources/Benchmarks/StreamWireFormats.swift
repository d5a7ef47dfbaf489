import Domain
import Foundation

// Wire shapes of broker stream frames and quote bodies, written by hand for the benchmark from the
// brokers' public documentation: no broker adapter exists yet. They decode with JSONDecoder as an
// adapter's Codable wire models would, then map to `CommonQuote`.

/// Polygon-style trade event: `{"ev":"T","sym":"AAPL","p":227.5,"s":100,"t":1731528912441}` (ms epoch).
struct PolygonStyleTrade: Decodable {
    var ev: String
    var sym: String
    var p: Double
    var s: Int64
    var t: Int64

    var commonQuote: CommonQuote {
        CommonQuote(symbol: sym, last: p, timestamp: Date(timeIntervalSince1970: Double(t) / 1_000), volume: s)
    }
}

/// Alpaca-style quote event:
/// `{"T":"q","S":"AAPL","bp":227.5,"bs":3,"ap":227.53,"as":2,"t":"2024-11-13T20:15:03.123456789Z"}`.
struct AlpacaStyleQuote: Decodable {
    var T: String
    var S: String
    var bp: Double
    var bs: Int64
    var ap: Double
    var `as`: Int64
    var t: String

    var commonQuote: CommonQuote? {
        guard let timestamp = RFC3339Timestamp.parse(t) else { return nil }
        return CommonQuote(symbol: S, last: (bp + ap) / 2, timestamp: timestamp, bid: bp, ask: ap)
    }
}

/// Tradier-style `GET /v1/markets/quotes` body: `{"quotes":{"quote":[{…}, …]}}`, with the fields a
/// real body carries (most of which the adapter ignores, but the decoder still has to skip).
struct TradierStyleQuotesBody: Decodable {
    struct Quotes: Decodable { var quote: [TradierStyleQuote] }
    var quotes: Quotes
}

struct TradierStyleQuote: Decodable {
    var symbol: String
    var last: Double?
    var bid: Double?
    var ask: Double?
    var prevclose: Double?
    var volume: Int64?
    var trade_date: Int64?

    var commonQuote: CommonQuote? {
        guard let last else { return nil }
        return CommonQuote(
            symbol: symbol, last: last, timestamp: Date(timeIntervalSince1970: Double(trade_date ?? 0) / 1_000),
            bid: bid, ask: ask, previousClose: prevclose, volume: volume)
    }
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, the only form these streams send; up to nanosecond fractions,
/// which `ISO8601DateFormatter` does not keep.
enum RFC3339Timestamp {
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                  bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                  bytes[bytes.count - 1] == UInt8(ascii: "Z")
            else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    let digit = Int(bytes[index]) - 48
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                  let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
            else { return nil }
            var fraction = 0.0
            if bytes[19] == UInt8(ascii: ".") {
                var scale = 0.1
                for index in 20..<(bytes.count - 1) {
                    let digit = Int(bytes[index]) - 48
                    guard (0...9).contains(digit) else { return nil }
                    fraction += Double(digit) * scale
                    scale /= 10
                }
            }
            let days = daysFromCivil(year: year, month: month, day: day)
            let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
            return Date(timeIntervalSince1970: seconds)
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
