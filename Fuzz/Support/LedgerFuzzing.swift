import Foundation
import Stores
import TextSafety

/// What the journal harnesses share: the ledger format written out independently of `Stores` (its own
/// bitwise CRC-32 and line parser, from docs/ledger-format.md), a model of what a replay must make of
/// any bytes, and the check of a real `Journal` replay against that model, on a file in a scratch
/// directory (in memory, /dev/shm, where there is one).
///
/// The model, per docs/ledger-format.md: lines are split at `\n`; line N must be exactly
/// `{"seq":N,"crc":"HHHHHHHH","rec":R}` with N's digits (1–18, no leading zero) and the CRC-32 of
/// `N R` in lowercase hex. A last piece without a newline, or a bad last line, is a torn tail: dropped,
/// saved beside the ledger, and cut from the file. Any other bad line, or a good line with the wrong N,
/// makes the ledger corrupt at that line, and the file is left as it was. Records are what JSONDecoder
/// reads from R: the journal's own decoder may be faster but must give the same record whenever
/// JSONDecoder gives one (it may read more than JSONDecoder, since a checksum vouches for the bytes).
enum LedgerFuzzing {
    enum Verdict: Equatable {
        case whole
        case torn(line: Int, start: Int)
        case corrupt(line: Int)
    }

    struct Expectation {
        /// Where each intact line's record is, line 1 first.
        var records: [Range<Int>]
        var verdict: Verdict
    }

    private static let sequencePrefix = Array(#"{"seq":"#.utf8)
    private static let checksumPrefix = Array(#","crc":""#.utf8)
    private static let recordPrefix = Array(#"","rec":"#.utf8)
    private static let newline = UInt8(ascii: "\n")

    // MARK: Writing

    /// CRC-32 as zlib computes it, one bit at a time (the journal's is table driven).
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Line `sequence` holding `record`, newline included.
    static func line(sequence: Int, record: some Collection<UInt8>) -> [UInt8] {
        let digits = Array(String(sequence).utf8)
        let hex = String(crc32(digits + [UInt8(ascii: " ")] + Array(record)), radix: 16)
        return sequencePrefix + digits + checksumPrefix + Array((String(repeating: "0", count: 8 - hex.count) + hex).utf8)
            + recordPrefix + Array(record) + [UInt8(ascii: "}"), newline]
    }

    /// A ledger whose lines hold `bodies` as their records, every envelope right: what an editor that
    /// fixed the checksums, or another program, could write.
    static func ledger(bodies: [ArraySlice<UInt8>]) -> [UInt8] {
        bodies.enumerated().flatMap { line(sequence: $0.offset + 1, record: $0.element) }
    }

    /// `payload` cut at its newlines into record bodies (a line cannot hold one). Empty pieces are
    /// dropped: a line's record is never empty, and the point of these ledgers is their records.
    static func bodies(_ payload: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        payload.split(separator: newline, omittingEmptySubsequences: false).filter { !$0.isEmpty }
    }

    /// `bytes` with one damage the choices pick: cut short, a byte changed, one inserted or one removed.
    static func damaged(_ bytes: [UInt8], _ choices: inout FuzzBytes) -> [UInt8] {
        var bytes = bytes
        let at = choices.int(in: 0...bytes.count)
        switch choices.int(in: 0...3) {
        case 0: bytes.removeSubrange(at...)
        case 1 where at < bytes.count: bytes[at] = choices.byte()
        case 2: bytes.insert(choices.byte(), at: at)
        case 3 where at < bytes.count: bytes.remove(at: at)
        default: break
        }
        return bytes
    }

    // MARK: The model

    static func expect(_ bytes: [UInt8]) -> Expectation {
        var records: [Range<Int>] = []
        var start = 0
        while start < bytes.count {
            let line = records.count + 1
            guard let end = bytes[start...].firstIndex(of: newline) else {
                return Expectation(records: records, verdict: .torn(line: line, start: start))
            }
            guard let parsed = parse(bytes[start..<end]) else {
                return Expectation(records: records, verdict: end + 1 == bytes.count ? .torn(line: line, start: start) : .corrupt(line: line))
            }
            guard parsed.sequence == line else { return Expectation(records: records, verdict: .corrupt(line: line)) }
            records.append(parsed.record)
            start = end + 1
        }
        return Expectation(records: records, verdict: .whole)
    }

    /// The sequence number and record of a line (without its newline), or nil if it is not a whole,
    /// intact ledger line.
    static func parse(_ line: ArraySlice<UInt8>) -> (sequence: Int, record: Range<Int>)? {
        var rest = line
        func take(_ literal: [UInt8]) -> Bool {
            guard rest.starts(with: literal) else { return false }
            rest = rest.dropFirst(literal.count)
            return true
        }
        guard take(sequencePrefix) else { return nil }
        let digits = rest.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard (1...18).contains(digits.count), digits.first != UInt8(ascii: "0") else { return nil }
        rest = rest.dropFirst(digits.count)
        guard take(checksumPrefix) else { return nil }
        let hex = rest.prefix(8)
        guard hex.count == 8, hex.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }),
              let written = UInt32(String(decoding: hex, as: UTF8.self), radix: 16) else { return nil }
        rest = rest.dropFirst(8)
        guard take(recordPrefix), rest.count >= 2, rest.last == UInt8(ascii: "}") else { return nil }
        let record = rest.startIndex..<(rest.endIndex - 1)
        guard crc32(Array(digits) + [UInt8(ascii: " ")] + Array(line[record])) == written else { return nil }
        return (Int(String(decoding: digits, as: UTF8.self))!, record)
    }

    // MARK: Checking a replay

    /// Replays `bytes` with a real `Journal` in `scratch` and checks the outcome against the model: the
    /// records, the torn tail (saved, and cut from the file, after which a second replay gives the same
    /// records), the corrupt line (file untouched). Every message must be free of characters
    /// that steer a terminal. Returns the records replayed, or nil when the journal refused the ledger.
    @discardableResult
    static func check<Record: Codable & Sendable & Equatable>(_ bytes: [UInt8], as _: Record.Type, in scratch: ScratchLedger) -> [Record]? {
        let expected = expect(bytes)
        scratch.reset(to: bytes)
        defer { scratch.clear() }
        let result = replay(Record.self, in: scratch)
        let shown = show(bytes)

        if case .corrupt(let line) = expected.verdict {
            guard case .failure(.corrupt(let got, _, _)) = result, got == line else {
                fuzzInvariant(false, "expected corrupt at line \(line), got \(describe(result)) for \(shown)")
                return nil
            }
            checkRefusal(result, bytes: bytes, in: scratch)
            return nil
        }

        let reference = expected.records.map { try? JSONDecoder().decode(Record.self, from: Data(bytes[$0])) }
        switch result {
        case .failure(.corrupt(let line, _, _)):
            // Only a record JSONDecoder cannot read either may stop the replay.
            fuzzInvariant(line >= 1 && line <= reference.count && reference[line - 1] == nil,
                          "corrupt at line \(line) although JSONDecoder reads it (\(reference.count) intact lines) in \(shown)")
            checkRefusal(result, bytes: bytes, in: scratch)
            return nil
        case .failure(let error):
            fuzzInvariant(false, "replay failed: \(error) for \(shown)")
            return nil
        case .success(let replay):
            fuzzInvariant(replay.firstSequence == 1, "first sequence \(replay.firstSequence)")
            fuzzInvariant(replay.records.count == reference.count, "\(replay.records.count) records replayed, \(reference.count) intact lines in \(shown)")
            for (index, record) in reference.enumerated() {
                guard let record else { continue }
                fuzzInvariant(replay.records[index] == record,
                              "line \(index + 1): the journal read \(replay.records[index]), JSONDecoder \(record), from \(show(bytes[expected.records[index]]))")
            }
            checkTail(replay.tornTail, expected.verdict, bytes: bytes, in: scratch)
            guard replay.tornTail != nil else { return replay.records }
            // What is left is whole now: a second replay gives the same records and nothing torn.
            let again = Self.replay(Record.self, in: scratch)
            guard case .success(let second) = again, second.tornTail == nil, second.records == replay.records else {
                fuzzInvariant(false, "a second replay gave \(describe(again)) after \(replay.records.count) records from \(shown)")
                return nil
            }
            return replay.records
        }
    }

    static func replay<Record: Codable & Sendable>(_: Record.Type, in scratch: ScratchLedger) -> Result<JournalReplay<Record>, JournalError> {
        Result { () throws(JournalError) in try Journal<Record>(url: scratch.ledger).readNew() }
    }

    /// A refused ledger is left exactly as it was, nothing saved beside it, and the message is safe.
    private static func checkRefusal<Record>(_ result: Result<JournalReplay<Record>, JournalError>, bytes: [UInt8], in scratch: ScratchLedger) {
        guard case .failure(let error) = result else { return }
        checkVisible(error.description)
        fuzzInvariant(scratch.contents(of: scratch.ledger.path) == bytes, "a refused ledger was changed")
        fuzzInvariant(scratch.files() == [ScratchLedger.ledgerName], "a refused ledger left \(scratch.files())")
    }

    private static func checkTail(_ tail: JournalTornTail?, _ verdict: Verdict, bytes: [UInt8], in scratch: ScratchLedger) {
        guard case .torn(let line, let start) = verdict else {
            fuzzInvariant(tail == nil, "a torn tail \(String(describing: tail)) in a whole ledger \(show(bytes))")
            fuzzInvariant(scratch.contents(of: scratch.ledger.path) == bytes, "a whole ledger was changed")
            fuzzInvariant(scratch.files() == [ScratchLedger.ledgerName], "a whole ledger left \(scratch.files())")
            return
        }
        guard let tail else {
            fuzzInvariant(false, "no torn tail reported for line \(line) at byte \(start) of \(show(bytes))")
            return
        }
        fuzzInvariant(tail.line == line && tail.byteCount == bytes.count - start,
                      "torn tail at line \(tail.line) of \(tail.byteCount) bytes, expected line \(line) of \(bytes.count - start)")
        fuzzInvariant(scratch.contents(of: tail.savedTo) == Array(bytes[start...]), "the saved tail is not the torn bytes")
        fuzzInvariant(scratch.contents(of: scratch.ledger.path) == Array(bytes[..<start]), "the ledger was not cut where the torn line starts")
        fuzzInvariant(scratch.files().count == 2, "torn tail left \(scratch.files())")
        checkVisible(tail.message)
    }

    /// No character of `text` may act on a terminal.
    static func checkVisible(_ text: String) {
        fuzzInvariant(!text.unicodeScalars.contains(where: VisibleText.isSteering), "unescaped control character in \(text.debugDescription)")
    }

    static func describe<Record>(_ result: Result<JournalReplay<Record>, JournalError>) -> String {
        switch result {
        case .success(let replay): "\(replay.records.count) records, torn: \(replay.tornTail.map { "line \($0.line)" } ?? "none")"
        case .failure(let error): "\(error)"
        }
    }

    static func show(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes.prefix(2_000), as: UTF8.self).debugDescription
    }
}

/// A directory of this process's own for the ledger under test, emptied after each input and removed at
/// exit. Plain system calls: FoundationEssentials' `FileManager.contents(atPath:)` leaks its buffer for
/// an empty file (Swift 6.3.1), which AddressSanitizer's leak check reports.
final class ScratchLedger {
    static let ledgerName = "ledger.jsonl"
    let directory: String
    let ledger: URL

    init() {
        var info = stat()
        let parent = stat("/dev/shm", &info) == 0 && info.st_mode & S_IFMT == S_IFDIR ? "/dev/shm" : NSTemporaryDirectory()
        directory = parent + "/commonbroker-fuzz-\(getpid())"
        ledger = URL(fileURLWithPath: directory + "/" + Self.ledgerName)
        mkdir(directory, 0o700)
        Self.created = directory
        atexit {
            guard let directory = ScratchLedger.created else { return }
            ScratchLedger.removeFiles(in: directory)
            rmdir(directory)
        }
    }

    /// For the exit handler, which cannot capture.
    nonisolated(unsafe) private static var created: String?

    func reset(to bytes: [UInt8]) {
        clear()
        let descriptor = open(ledger.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        fuzzInvariant(descriptor >= 0, "cannot create \(ledger.path): errno \(errno)")
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fuzzInvariant(written == bytes.count, "wrote \(written) of \(bytes.count) bytes to \(ledger.path)")
    }

    func clear() {
        Self.removeFiles(in: directory)
    }

    func files() -> [String] {
        Self.names(in: directory)
    }

    func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return count == bytes.count ? bytes : nil
    }

    private static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    private static func removeFiles(in directory: String) {
        for name in names(in: directory) { unlink(directory + "/" + name) }
    }
}
