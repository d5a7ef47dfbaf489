#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Locking

/// An append-only ledger of `Record`s in one file, one JSON line each (`JournalLine` gives the layout,
/// docs/ledger-format.md the file), that loses nothing an append acknowledged:
///
/// - `append` returns only after the line is written and `fsync`ed; only then may the caller tell the
///   user (e.g. "filled"). A crash before that leaves at most an incomplete last line.
/// - Reading (the first `readNew` is the replay at start) checks every line's sequence number and
///   checksum. An incomplete last line is dropped with a message, its bytes saved beside the file
///   (`JournalTornTail`); any other bad line is refused with its line number (`JournalError.corrupt`)
///   and the file is left untouched.
/// - Several instances, in this process or others, may share one file: each append and read holds an
///   exclusive `flock` on it, reads first what the others appended (handed to the caller, to apply
///   before its own), then writes after them.
///
/// Calls block on the disk and on the lock; use it from an actor or a thread of its own. Within one
/// instance, calls are serialized by a mutex.
public final class Journal<Record: Codable & Sendable>: Sendable {
    public let url: URL
    public let lockTimeout: Duration
    private let writing: JournalWriting
    private let state: Locked<State>

    private struct State {
        var descriptor: Int32
        /// How far this instance has read: the end of the last intact line it has seen.
        var offset = 0
        var nextSequence = 1
        /// Set when a write or fsync failed: the file's state is unknown, so nothing more is done.
        var failure: String?
        /// Records read from the file that an append meant to hand over in its receipt, when the append
        /// then failed: the next read hands them over instead, so none is skipped.
        var undelivered: JournalReplay<Record>?
    }

    /// Opens the ledger at `url`, creating the file (mode 0600) and its directory (0700) when missing.
    /// Reads nothing: call `readNew()` for the records already in it.
    public convenience init(url: URL, lockTimeout: Duration = .seconds(10)) throws(JournalError) {
        try self.init(url: url, lockTimeout: lockTimeout, writing: .live)
    }

    init(url: URL, lockTimeout: Duration, writing: JournalWriting) throws(JournalError) {
        self.url = url
        self.lockTimeout = lockTimeout
        self.writing = writing
        state = Locked(State(descriptor: try JournalDisk.openLedger(url)))
    }

    deinit {
        state.withLock { _ = close($0.descriptor) }
    }

    public var path: String { url.path }

    /// The sequence number of the last record this instance has read or written (0 for none).
    public var lastSequence: Int { state.withLock { $0.nextSequence - 1 } }

    /// The records this instance has not seen yet: on the first call every record in the file (the
    /// replay at start), later those other instances appended since. An incomplete last line, left by
    /// a crash during someone's append, is dropped and reported in `tornTail`.
    public func readNew() throws(JournalError) -> JournalReplay<Record> {
        try state.withLock { (state) throws(JournalError) -> JournalReplay<Record> in
            try locked(&state) { (state) throws(JournalError) in try readNewLocked(&state) }
        }
    }

    /// Appends `record` and flushes it to disk. The receipt holds its sequence number and the records
    /// others appended before it.
    @discardableResult
    public func append(_ record: Record) throws(JournalError) -> JournalReceipt<Record> {
        let encoded = try Self.encode([record])
        return try appendEncoded(othersSeenByCaller: false) { _ in encoded }
    }

    /// Appends `records` with one write and one flush. Each line stands alone: a crash during the
    /// write may keep the first few records of the batch (never a part of one).
    @discardableResult
    public func append(contentsOf records: [Record]) throws(JournalError) -> JournalReceipt<Record> {
        let encoded = try Self.encode(records)
        return try appendEncoded(othersSeenByCaller: false) { _ in encoded }
    }

    /// Under the lock: reads what others appended, hands it to `decide` and appends the records it
    /// returns (none is fine). This is how to check an order against the latest state: apply the
    /// records passed in, then decide; no other instance can append in between. `decide` runs with the
    /// file locked, so it should be quick and must not call this journal. The records passed to it
    /// count as handed over even when the append then fails.
    @discardableResult
    public func append(deciding decide: (_ appendedByOthers: JournalReplay<Record>) -> [Record]) throws(JournalError) -> JournalReceipt<Record> {
        var encodingFailure: JournalError?
        let receipt = try appendEncoded(othersSeenByCaller: true) { others in
            do throws(JournalError) {
                return try Self.encode(decide(others))
            } catch {
                encodingFailure = error
                return []
            }
        }
        if let encodingFailure { throw encodingFailure }
        return receipt
    }

    // MARK: Locked work

    /// Reads what others appended, then writes the records `records` makes of it. When the write fails
    /// and the caller has not seen the others' records (`othersSeenByCaller`), they are kept for the
    /// next read: the receipt that would have carried them is never returned.
    private func appendEncoded(
        othersSeenByCaller: Bool, _ records: (JournalReplay<Record>) -> [[UInt8]]
    ) throws(JournalError) -> JournalReceipt<Record> {
        try state.withLock { (state) throws(JournalError) -> JournalReceipt<Record> in
            try locked(&state) { (state) throws(JournalError) -> JournalReceipt<Record> in
                let others = try readNewLocked(&state)
                let encoded = records(others)
                let first = state.nextSequence
                guard !encoded.isEmpty else {
                    return JournalReceipt(sequences: first..<first, appendedByOthers: others)
                }
                var bytes: [UInt8] = []
                for (index, record) in encoded.enumerated() {
                    bytes.append(contentsOf: JournalLine.bytes(sequence: first + index, record: record))
                }
                do throws(JournalError) {
                    try write(bytes, &state)
                } catch {
                    if !othersSeenByCaller { state.undelivered = others }
                    throw error
                }
                state.offset += bytes.count
                state.nextSequence += encoded.count
                return JournalReceipt(sequences: first..<state.nextSequence, appendedByOthers: others)
            }
        }
    }

    /// Writes and flushes `bytes` at the end of the file. On failure it takes back what was written,
    /// so no one reads a record its writer was told had failed; when even that is uncertain (a failed
    /// fsync), the instance stops writing.
    private func write(_ bytes: [UInt8], _ state: inout State) throws(JournalError) {
        do throws(JournalError) {
            try writing.writeAll(state.descriptor, path, bytes)
            try writing.sync(state.descriptor, path)
        } catch {
            do throws(JournalError) {
                try JournalDisk.truncate(state.descriptor, path: path, to: state.offset)
            } catch {
                state.failure = error.description
            }
            if case .io(.sync, _, _, _) = error { state.failure = error.description }
            throw error
        }
    }

    private func locked<T>(_ state: inout State, _ body: (inout State) throws(JournalError) -> T) throws(JournalError) -> T {
        if let failure = state.failure { throw .unusable(path: path, cause: failure) }
        try JournalDisk.lock(state.descriptor, path: path, timeout: lockTimeout)
        defer { JournalDisk.unlock(state.descriptor) }
        return try body(&state)
    }

    /// What is new in the file, after whatever a failed append left undelivered.
    private func readNewLocked(_ state: inout State) throws(JournalError) -> JournalReplay<Record> {
        let fresh = try readFileLocked(&state)
        guard let undelivered = state.undelivered else { return fresh }
        state.undelivered = nil
        return JournalReplay(records: undelivered.records + fresh.records, firstSequence: undelivered.firstSequence,
                             tornTail: fresh.tornTail ?? undelivered.tornTail)
    }

    private func readFileLocked(_ state: inout State) throws(JournalError) -> JournalReplay<Record> {
        let size = try JournalDisk.size(state.descriptor, path: path)
        if size < state.offset { throw .shrunk(path: path, size: size, alreadyRead: state.offset) }
        guard size > state.offset else { return JournalReplay(records: [], firstSequence: state.nextSequence) }

        let threads = Self.threads(for: size - state.offset)
        let bytes = try JournalDisk.read(state.descriptor, path: path, offset: state.offset, count: size - state.offset, threads: threads)
        let (scan, records) = try read(bytes, firstSequence: state.nextSequence, threads: threads)

        var tornTail: JournalTornTail?
        if let torn = scan.torn {
            let line = state.nextSequence + scan.lineCount
            let savedTo = try JournalDisk.saveTornTail(bytes[torn.start..<bytes.count], beside: url, line: line)
            try JournalDisk.truncate(state.descriptor, path: path, to: state.offset + torn.start)
            tornTail = JournalTornTail(path: path, line: line, byteCount: bytes.count - torn.start,
                                       reason: torn.problem.description, savedTo: savedTo)
        }
        let replay = JournalReplay(records: records, firstSequence: state.nextSequence, tornTail: tornTail)
        state.offset += scan.end
        state.nextSequence += scan.lineCount
        return replay
    }

    /// Checks the lines of `bytes` and decodes their records, a large read in parts on `threads` threads:
    /// checksums and decoding are most of a replay's time, and lines are independent. The first bad line
    /// in file order is the one reported; a record that does not decode is reported only when every line
    /// is intact, as it would be if the lines were all checked before any was decoded.
    private func read(_ bytes: JournalBytes, firstSequence: Int, threads: Int) throws(JournalError) -> (JournalScan, [Record]) {
        // More parts than threads, so a thread slowed by others on the machine does not hold up the rest.
        let ranges = JournalPart.ranges(of: bytes, count: threads > 1 ? threads * 4 : 1)
        let parts = Self.inParallel(ranges.count, threads: threads) { JournalPart.read(bytes, ranges[$0]) }
        let scan: JournalScan
        switch JournalScan.join(parts, firstSequence: firstSequence) {
        case .success(let joined): scan = joined
        case .failure(let corruption): throw .corrupt(line: corruption.line, reason: corruption.reason, path: path)
        }
        return (scan, try decode(parts, lineCount: scan.lineCount, from: bytes, threads: threads))
    }

    /// The records of the lines of `parts` (`lineCount` in all, every one intact), decoded in parts on
    /// `threads` threads straight into the array returned. The first that does not decode, in file order,
    /// is the one reported.
    private func decode(_ parts: [JournalPart], lineCount: Int, from bytes: JournalBytes, threads: Int) throws(JournalError) -> [Record] {
        guard lineCount > 0 else { return [] }
        // Where each part's records go: after the lines of the parts before it.
        var total = 0
        let offsets = parts.map { part in
            defer { total += part.lines.count }
            return total
        }
        precondition(total == lineCount, "the parts hold \(total) lines, the scan counted \(lineCount)")
        let parser = Self.recordParser
        let path = path
        var failure: JournalError?
        let records = [Record](unsafeUninitializedCapacity: lineCount) { buffer, initializedCount in
            let slots = RecordSlots(base: buffer.baseAddress!)
            let decoded = Self.inParallel(parts.count, threads: threads) { index in
                Self.decode(parts[index].lines, from: bytes, into: slots.base + offsets[index], parser: parser)
            }
            if let first = decoded.firstIndex(where: { $0.undecodable != nil }), let undecodable = decoded[first].undecodable {
                for (index, part) in decoded.enumerated() { (slots.base + offsets[index]).deinitialize(count: part.initialized) }
                failure = .corrupt(line: parts[first].lines[undecodable.index].sequence, reason: undecodable.reason, path: path)
                initializedCount = 0
            } else {
                initializedCount = lineCount
            }
        }
        if let failure { throw failure }
        return records
    }

    /// Decodes the records of `lines` into `slots`: runs of them with `Record`'s own parser when it has
    /// one, each record it leaves with Codable, until one does not decode.
    private static func decode(_ lines: [JournalLine], from bytes: JournalBytes, into slots: UnsafeMutablePointer<Record>, parser: Parser?) -> DecodedPart {
        let jsons = lines.map { bytes[$0.record] }
        return jsons.withUnsafeBufferPointer { jsons in
            var done = 0
            while done < lines.count {
                if let parser {
                    done += parser(UnsafeBufferPointer(rebasing: jsons[done...]), slots + done)
                    guard done < lines.count else { break }
                }
                do {
                    (slots + done).initialize(to: try RecordDecoding.decode(Record.self, from: bytes, lines[done].record))
                    done += 1
                } catch {
                    return DecodedPart(initialized: done, undecodable: (done, "its record is not a \(Record.self): \(describe(error))"))
                }
            }
            return DecodedPart(initialized: done, undecodable: nil)
        }
    }

    /// How far decoding a part got: its first `initialized` records are in place; `undecodable` is the
    /// index and reason of the record that stopped it.
    private struct DecodedPart: Sendable {
        var initialized: Int
        var undecodable: (index: Int, reason: String)?
    }

    /// The memory a replay's records are decoded into, shared by the threads that decode: each writes
    /// only the range of its own part.
    private struct RecordSlots: @unchecked Sendable {
        let base: UnsafeMutablePointer<Record>
    }

    /// `body` of 0..<count, in order, on several threads when `threads` says so.
    private static func inParallel<Result: Sendable>(_ count: Int, threads: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
        guard count > 1, threads > 1 else { return (0..<count).map(body) }
        let results = Locked([Result?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let result = body(index)
            results.withLock { $0[index] = result }
        }
        return results.withLock { $0 }.map { result in
            guard let result else { preconditionFailure("concurrentPerform returned before every part was done") }
            return result
        }
    }

    /// Threads for reading `byteCount` new bytes: one for what others appended since the last look, every
    /// core for a replay at start (below about a megabyte a thread, handing work over costs more than it
    /// saves).
    private static func threads(for byteCount: Int) -> Int {
        max(1, min(ProcessInfo.processInfo.activeProcessorCount, byteCount / 1_000_000, 16))
    }

    private typealias Parser = @Sendable (UnsafeBufferPointer<UnsafeRawBufferPointer>, UnsafeMutablePointer<Record>) -> Int

    /// `Record`'s own parser, when it has one (`JournalRecordParsing`).
    private static var recordParser: Parser? {
        guard let parsing = Record.self as? any JournalRecordParsing.Type else { return nil }
        return parser(parsing)
    }

    private static func parser<Parsing: JournalRecordParsing>(_ type: Parsing.Type) -> Parser {
        { records, slots in
            // `Parsing` is `Record` itself (it came from `Record.self`): the same memory, typed as such.
            Parsing.parse(records, into: UnsafeMutableRawPointer(slots).assumingMemoryBound(to: Parsing.self))
        }
    }

    // MARK: Encoding

    private static func encode(_ records: [Record]) throws(JournalError) -> [[UInt8]] {
        let encoder = JSONEncoder()
        // Sorted keys: the same record is always the same line, which makes files comparable.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try records.map { Array(try encoder.encode($0)) }
        } catch {
            throw .unencodable(reason: describe(error))
        }
    }

    /// A decoding or encoding error in a few words, with the path of the member that failed.
    private static func describe(_ error: any Error) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty ? "the record" : codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "\(path(context.codingPath)) has no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
             DecodingError.dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case EncodingError.invalidValue(_, let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }
}
