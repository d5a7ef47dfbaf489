/// The two calls that put an append on disk, apart so tests can make them fail (a full disk in the
/// middle of a write, a failed fsync) and check that the journal takes back what it wrote.
struct JournalWriting: Sendable {
    var writeAll: @Sendable (_ descriptor: Int32, _ path: String, _ bytes: [UInt8]) throws(JournalError) -> Void
    var sync: @Sendable (_ descriptor: Int32, _ path: String) throws(JournalError) -> Void

    static let live = JournalWriting(
        writeAll: { descriptor, path, bytes throws(JournalError) in try JournalDisk.writeAll(descriptor, path: path, bytes) },
        sync: { descriptor, path throws(JournalError) in try JournalDisk.sync(descriptor, path: path) }
    )
}
