import Domain
import Foundation

/// A quote as the leader writes it to `quote.<broker>.<symbol>`: one line of ASCII, the symbol being in
/// the key already.
///
///     q1 <last> <bid> <ask> <previous close> <volume> <time>
///
/// Prices are `ExactDecimal`'s own digits (never a binary float), `-` where the broker sent none;
/// volume a whole number or `-`; time whole microseconds since 1970 (UTC), from the years 1748 to 2191
/// (`timeLimit`). `q1` is the format's version: a reader refuses any other, so a newer leader can never
/// be misread.
///
/// Text, not JSON: a quote crosses the bus for every change, and this form is read with no allocation
/// but the `CommonQuote` itself, and by eye in `nats kv get`.
public enum BusQuoteWire {
    static let version = "q1"

    public static func encode(_ quote: CommonQuote) -> [UInt8] {
        var text = version
        text.reserveCapacity(80)
        text += " " + quote.last.description
        text += " " + (quote.bid?.description ?? "-")
        text += " " + (quote.ask?.description ?? "-")
        text += " " + (quote.previousClose?.description ?? "-")
        // A volume below zero means nothing; readers refuse it, so it is not written.
        text += " " + (quote.volume.flatMap { $0 >= 0 ? String($0) : nil } ?? "-")
        text += " " + String(microseconds(quote.timestamp))
        return Array(text.utf8)
    }

    /// The quote of `symbol` in `bytes`, or why it cannot be read (short, printable, no payload text).
    public static func decode(_ bytes: [UInt8], symbol: String) -> Result<CommonQuote, BusWireError> {
        let fields = bytes.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard fields.count == 7 else {
            return .failure(BusWireError("a quote has \(fields.count) \(fields.count == 1 ? "field" : "fields"), not 7"))
        }
        guard fields[0].elementsEqual(version.utf8) else {
            return .failure(BusWireError("a quote is not in format \(version)"))
        }
        guard let last = price(fields[1]) else { return .failure(BusWireError("a quote's last price is not a decimal")) }
        let bid: ExactDecimal?, ask: ExactDecimal?, close: ExactDecimal?
        switch (optionalPrice(fields[2]), optionalPrice(fields[3]), optionalPrice(fields[4])) {
        case (.some(let b), .some(let a), .some(let c)): (bid, ask, close) = (b, a, c)
        default: return .failure(BusWireError("a quote's bid, ask or previous close is neither a decimal nor -"))
        }
        let volume: Int64?
        if isDash(fields[5]) {
            volume = nil
        } else if let value = integer(fields[5]), value >= 0 {
            volume = value
        } else {
            return .failure(BusWireError("a quote's volume is neither a whole number nor -"))
        }
        guard let time = integer(fields[6]) else { return .failure(BusWireError("a quote's time is not whole microseconds")) }
        guard abs(time) <= timeLimit else { return .failure(BusWireError("a quote's time is beyond the years 1748 to 2191")) }
        return .success(CommonQuote(
            symbol: symbol, last: last, timestamp: date(microseconds: time),
            bid: bid, ask: ask, previousClose: close, volume: volume))
    }

    /// The widest time the wire carries, in microseconds either side of 1970: 7×10¹⁵, the years 1748 to
    /// 2191. A `Date` is a `Double` of seconds since 2001; within ±2³³ s of 2001 (1729 to 2273) its steps
    /// are under a microsecond, so each microsecond has a `Date` of its own and a time read, written and
    /// read again is the same `Date`. Beyond that two microseconds can share a `Date`.
    static let timeLimit: Int64 = 7_000_000_000_000_000

    /// 1970 to 2001 (Foundation's reference date) in microseconds.
    private static let referenceDateMicroseconds: Int64 = 978_307_200_000_000

    /// The `Date` nearest to `microseconds` after 1970. Counted from 2001, in whole microseconds (exact in
    /// `Int64`), then divided once: `Date(timeIntervalSince1970:)` would round twice (the division, then
    /// the shift to 2001), and from 2041 on the time written back would be a microsecond off.
    static func date(microseconds: Int64) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(microseconds - referenceDateMicroseconds) / 1_000_000)
    }

    /// `date` in whole microseconds since 1970, to the nearest; 0 for a date some 250,000 years away.
    static func microseconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSinceReferenceDate
        let product = seconds * 1_000_000
        guard product.isFinite, abs(product) < 8e18 else { return 0 }
        // The product is rounded to a Double; `error` is exactly what that rounding lost (a fused
        // multiply-add rounds once), so the nearest whole number is that of the exact product, and
        // `date(microseconds:)` of a time read gives back that very time.
        let error = (-product).addingProduct(seconds, 1_000_000)
        let whole = product.rounded()
        return Int64(whole) + Int64(((product - whole) + error).rounded()) + referenceDateMicroseconds
    }

    private static func isDash(_ field: ArraySlice<UInt8>) -> Bool {
        field.count == 1 && field.first == UInt8(ascii: "-")
    }

    private static func price(_ field: ArraySlice<UInt8>) -> ExactDecimal? {
        guard !field.isEmpty, field.count <= 40 else { return nil }
        return field.withUnsafeBufferPointer { ExactDecimal(parsingUTF8: $0) }
    }

    /// `.some(nil)` for `-`, `.some(value)` for a decimal, nil for anything else.
    private static func optionalPrice(_ field: ArraySlice<UInt8>) -> ExactDecimal?? {
        if isDash(field) { return .some(nil) }
        return price(field).map { .some($0) }
    }

    private static func integer(_ field: ArraySlice<UInt8>) -> Int64? {
        guard !field.isEmpty, field.count <= 20 else { return nil }
        var digits = field[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return negative ? -value : value
    }
}
