import Domain

/// Where each order of a `PaperLedgerState` is in its list, by id.
///
/// The paper broker names an order `P-` and the line that placed it (`PaperBroker`), so such an id is
/// found by its number in an array, without hashing a string: a replay looks up every order at least
/// twice (placed, then filled or ended), and hashing the ids into a growing dictionary was a quarter of
/// applying 200,000 lines. Any other id, or a number beyond the line that placed it (a hand-edited
/// ledger), is kept in a dictionary; both give the same answers.
struct PaperOrderIndex: Sendable {
    /// Index + 1 of the order `P-n` at position n; 0 where there is none.
    private var byNumber: [Int] = []
    private var byID: [OrderID: Int] = [:]

    /// Where order `id` is, nil when it has not been placed.
    subscript(id: OrderID) -> Int? {
        self[id, Self.number(id)]
    }

    private subscript(id: OrderID, number: Int?) -> Int? {
        if let number, number < byNumber.count, byNumber[number] != 0 {
            return byNumber[number] - 1
        }
        return byID.isEmpty ? nil : byID[id]
    }

    /// Records that order `id`, placed on line `line`, is at `index`; returns where it already is instead
    /// (changing nothing) when it was placed before.
    mutating func insert(_ id: OrderID, at index: Int, placedOn line: Int) -> Int? {
        let number = Self.number(id)
        if let earlier = self[id, number] { return earlier }
        if let number, number <= line {
            if number >= byNumber.count {
                byNumber.append(contentsOf: repeatElement(0, count: number + 1 - byNumber.count))
            }
            byNumber[number] = index + 1
        } else {
            byID[id] = index
        }
        return nil
    }

    /// n for an id written `P-n` (n from 1, no leading zero, at most 18 digits), nil for any other id.
    private static func number(_ id: OrderID) -> Int? {
        id.rawValue.utf8.withContiguousStorageIfAvailable(number(utf8:)) ?? number(utf8: Array(id.rawValue.utf8))
    }

    private static func number(utf8: some Collection<UInt8>) -> Int? {
        var number = 0
        var length = 0
        for byte in utf8 {
            switch length {
            case 0:
                guard byte == UInt8(ascii: "P") else { return nil }
            case 1:
                guard byte == UInt8(ascii: "-") else { return nil }
            default:
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10, length < 20, length > 2 || digit != 0 else { return nil }
                number = number * 10 + Int(digit)
            }
            length += 1
        }
        return length > 2 ? number : nil
    }
}
