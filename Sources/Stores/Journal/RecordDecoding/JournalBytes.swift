/// Bytes read from a ledger file, in memory this class owns. Filled once by `pread` before anyone else
/// sees it, then only read, which is why threads may share it (a replay decodes on several).
final class JournalBytes: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let count: Int

    init(count: Int) {
        // One byte more than asked, so an empty buffer still has an address.
        base = .allocate(capacity: count + 1)
        self.count = count
    }

    deinit { base.deallocate() }

    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    subscript(range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }
}
