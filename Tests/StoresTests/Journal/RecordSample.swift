import Foundation

/// A record using every kind of value `RecordDecoder` must read as JSONDecoder does.
struct RecordSample: Codable, Equatable {
    enum Side: String, Codable { case buy, sell, sellShort = "sell_short" }
    enum Level: Int, Codable { case low = 1, high = 2 }
    enum Event: Codable, Equatable {
        case fill(price: Decimal, quantity: Int)
        case cancel(reason: String)
        case expired
    }

    struct Child: Codable, Equatable {
        var name: String
        var weights: [Double]
    }

    var text: String
    var empty: String
    var flag: Bool
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var double: Double
    var float: Float
    var decimal: Decimal
    var date: Date
    var data: Data
    var url: URL
    var present: String?
    var absent: Int?
    var numbers: [Int]
    var nested: [[String]]
    var byName: [String: Int]
    var byNumber: [Int: String]
    var side: Side
    var level: Level
    var event: Event
    var child: Child?
    var children: [Child]

    static let texts = ["", "AAPL", "quote \" and back\\slash", "line\nbreak\ttab", "é ü ß", "emoji 😀 and 中文",
                        "\u{1}\u{1F} controls", "slash / and </script>", "a much longer text that is well past the fifteen bytes of a small string"]

    static func random(using generator: inout some RandomNumberGenerator) -> RecordSample {
        func text() -> String { texts.randomElement(using: &generator)! }
        func double() -> Double {
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: return Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 100
            case 1: return Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &generator)) * (Bool.random(using: &generator) ? 1 : -1)
            case 2: return [0.1, -0.0, .leastNonzeroMagnitude, 1e22, 1e23, 9_007_199_254_740_992, 0.3, 123_456_789.123_456_789].randomElement(using: &generator)!
            case 3: return Double(UInt64.random(in: 0...(1 << 53), using: &generator)) / 1e15
            default: return Double.random(in: -1e6...1e6, using: &generator)
            }
        }
        let child = Child(name: text(), weights: (0..<Int.random(in: 0...3, using: &generator)).map { _ in double() })
        return RecordSample(
            text: text(), empty: "", flag: Bool.random(using: &generator),
            int: Int.random(in: .min ... .max, using: &generator), int8: .random(in: .min ... .max, using: &generator),
            int16: .random(in: .min ... .max, using: &generator), int32: .random(in: .min ... .max, using: &generator),
            int64: [Int64.min, .max, 0, -1].randomElement(using: &generator)!,
            uint: .random(in: .min ... .max, using: &generator), uint8: .random(in: .min ... .max, using: &generator),
            uint16: .random(in: .min ... .max, using: &generator), uint32: .random(in: .min ... .max, using: &generator),
            uint64: [UInt64.max, 0, 1 << 63].randomElement(using: &generator)!,
            double: double(),
            float: Bool.random(using: &generator)
                ? Float(Int.random(in: -100_000...100_000, using: &generator)) / 64
                : Float(bitPattern: UInt32.random(in: 0...0x7F7F_FFFF, using: &generator)),
            decimal: [Decimal(string: "187.25")!, Decimal(string: "-0.0001")!, Decimal(string: "12345678901234567890.123")!, 0]
                .randomElement(using: &generator)!,
            date: Date(timeIntervalSinceReferenceDate: double()),
            data: Data((0..<Int.random(in: 0...20, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }),
            url: URL(string: ["https://paper-api.alpaca.markets/v2/orders?status=open", "file:///tmp/a%20b"].randomElement(using: &generator)!)!,
            present: Bool.random(using: &generator) ? text() : nil, absent: nil,
            numbers: (0..<Int.random(in: 0...4, using: &generator)).map { _ in Int.random(in: -9...9, using: &generator) },
            nested: [[], [text()], [text(), text()]],
            byName: [text(): 1, "b": -2], byNumber: [3: text(), -4: "x"],
            side: [.buy, .sell, .sellShort].randomElement(using: &generator)!,
            level: Bool.random(using: &generator) ? .low : .high,
            event: [.fill(price: 12.5, quantity: 3), .cancel(reason: text()), .expired].randomElement(using: &generator)!,
            child: Bool.random(using: &generator) ? child : nil, children: [child, child])
    }
}
