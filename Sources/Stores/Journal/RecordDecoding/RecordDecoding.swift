import Foundation

/// Decodes one record from a ledger's bytes: `RecordDecoder` first, JSONDecoder when it cannot. The
/// fallback makes the fast path safe to be incomplete (a type it does not know, an integer written as
/// `1.0`): such records cost JSONDecoder's time, and a record that neither can decode gets JSONDecoder's
/// error, which names the member.
enum RecordDecoding {
    static func decode<Record: Decodable>(_ type: Record.Type, from bytes: JournalBytes, _ range: Range<Int>) throws -> Record {
        // No `try?`: an `Optional<Record>` in this generic code costs a metadata lookup per record.
        do {
            return try withExtendedLifetime(bytes) {
                let span = RecordScanner.Span(start: range.lowerBound, end: range.upperBound)
                return try RecordDecoder(scanner: RecordScanner(bytes), span: span).decode(type)
            }
        } catch {
            return try JSONDecoder().decode(type, from: Data(bytes[range]))
        }
    }
}
