/// A list that grows by whole chunks, so appending never moves the elements already in it: a replay
/// appends an order for every `placed` line, and an array that doubles would copy every order again
/// at each doubling and touch twice the memory (a fifth of applying 100,000 fills, page faults
/// included). Elements are read and changed in place by index, as in an array.
struct AppendOnlyList<Element> {
    private var chunks: [[Element]] = []
    private(set) var count = 0

    /// 4,096 elements a chunk: a few hundred kilobytes for a ledger's orders.
    private static var chunkSize: Int { 4_096 }

    mutating func append(_ element: Element) {
        if count % Self.chunkSize == 0 {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(Self.chunkSize)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// Read and changed in place (`_read`, `_modify`): an order is some 200 bytes, and a getter would
    /// copy it whole for every member read.
    subscript(index: Int) -> Element {
        _read { yield chunks[index / Self.chunkSize][index % Self.chunkSize] }
        _modify { yield &chunks[index / Self.chunkSize][index % Self.chunkSize] }
    }

    /// `transform` of every element, in order.
    func map<Result>(_ transform: (Element) throws -> Result) rethrows -> [Result] {
        var results: [Result] = []
        results.reserveCapacity(count)
        for chunk in chunks {
            for element in chunk { results.append(try transform(element)) }
        }
        return results
    }
}

extension AppendOnlyList: Sendable where Element: Sendable {}
