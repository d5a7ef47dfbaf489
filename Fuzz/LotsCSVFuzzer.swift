import Domain
import Foundation
import TextSafety

/// Fuzzes the lots import: `LotsCSV.lots(in:file:today:)` over `CSVReader`, on any bytes a user's file
/// may hold. The file's name holds an escape sequence, as a hostile download's could.
///
/// Invariants, besides "never traps, never hangs":
/// - the result is lots, or a rejection listing 1…20 errors in file order with the total count;
/// - every error's position is in the file: its line is one of the file's lines (or the one after the
///   last, at column 1, where a missing row would go), its column at most one past that line's end, both
///   counted as the reader counts them (Unicode scalars; CRLF, LF and a lone CR end a line; a byte order
///   mark takes no column; nothing after a byte that is not UTF-8);
/// - no message holds a character that steers a terminal (`VisibleText.isSteering`), the file name's
///   escape sequence included;
/// - reading is deterministic, and a byte order mark in front changes nothing (every position included);
/// - every lot read passes the book's own check of lots (`ManualLot.problem`), was traded by `today`, and
///   comes from a line of the file; written back as CSV, the lots read back the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    LotsFuzzRun.check(Data(fuzzInput(data, size)))
    return 0
}

enum LotsFuzzRun {
    static let file = "lots\u{1b}]0;owned\u{7}.csv"
    static let today = TradeDate(year: 2026, month: 11, day: 24)!
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    static func check(_ data: Data) {
        let result = LotsCSV.lots(in: data, file: file, today: today)
        fuzzInvariant(LotsCSV.lots(in: data, file: file, today: today) == result, "reading the same bytes twice differed")
        // (Not before a UTF-16 byte order mark, which is recognised only as the file's first bytes.)
        if !data.starts(with: byteOrderMark) && !data.starts(with: [0xFF, 0xFE]) && !data.starts(with: [0xFE, 0xFF]) {
            fuzzInvariant(LotsCSV.lots(in: Data(byteOrderMark) + data, file: file, today: today) == result,
                          "a byte order mark in front changed the result")
        }
        let lines = lineLengths(Array(data))
        switch result {
        case .success(let lots):
            fuzzInvariant(!lots.isEmpty, "no lots and no error")
            for lot in lots {
                fuzzInvariant(lot.problem == nil, "lot \(lot) fails the book's check: \(lot.problem ?? "")")
                fuzzInvariant(lot.date <= today, "lot \(lot) traded after \(today)")
                fuzzInvariant((1...lines.count).contains(lot.line), "lot from line \(lot.line) of \(lines.count)")
            }
            checkRoundTrip(lots)
        case .failure(let rejection):
            fuzzInvariant(!rejection.errors.isEmpty && rejection.errors.count <= LotsCSV.maximumReportedErrors
                              && rejection.totalCount >= rejection.errors.count
                              && (rejection.errors.count == LotsCSV.maximumReportedErrors || rejection.totalCount == rejection.errors.count),
                          "\(rejection.errors.count) errors listed of \(rejection.totalCount)")
            fuzzInvariant(rejection.errors.map(\.position) == rejection.errors.map(\.position).sorted(), "errors out of file order")
            for error in rejection.errors {
                fuzzInvariant(isInFile(error.position, lines: lines), "error at \(error.position) outside the file's lines \(lines): \(error)")
                fuzzInvariant(error.file == file, "error names the file \(error.file.debugDescription)")
            }
            for line in rejection.lines {
                fuzzInvariant(!line.unicodeScalars.contains(where: VisibleText.isSteering), "unescaped control character in \(line.debugDescription)")
            }
        }
    }

    /// The length of each line in scalars, as `CSVReader` counts them: after a byte order mark, up to the
    /// first byte that is not UTF-8.
    static func lineLengths(_ bytes: [UInt8]) -> [Int] {
        var input = bytes.starts(with: byteOrderMark) ? bytes.dropFirst(3) : bytes[...]
        if input.starts(with: [0xFF, 0xFE]) || input.starts(with: [0xFE, 0xFF]) { input = [] }
        var lengths = [0]
        var decoder = UTF8()
        var iterator = input.makeIterator()
        var afterCarriageReturn = false
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" && afterCarriageReturn {
                    afterCarriageReturn = false
                    continue
                }
                afterCarriageReturn = scalar == "\r"
                if scalar == "\n" || scalar == "\r" {
                    lengths.append(0)
                } else {
                    lengths[lengths.count - 1] += 1
                }
            case .emptyInput, .error:
                break decoding
            }
        }
        return lengths
    }

    /// On one of the lines at most one column past its end, or at the start of the line after the last.
    static func isInFile(_ position: TextPosition, lines: [Int]) -> Bool {
        guard position.line >= 1, position.column >= 1 else { return false }
        if position.line == lines.count + 1 { return position.column == 1 }
        return position.line <= lines.count && position.column <= lines[position.line - 1] + 1
    }

    /// The lots written as a plain CSV file (every value quoted, quotes doubled) read back the same, each
    /// from its row's line.
    static func checkRoundTrip(_ lots: [ManualLot]) {
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var text = "date,symbol,quantity,price,fees,broker\r\n"
        for lot in lots {
            text += [lot.date.description, lot.symbol, lot.quantity.description, lot.price.description, lot.fees.description, lot.brokerLabel ?? ""]
                .map(quoted).joined(separator: ",") + "\r\n"
        }
        let expected = lots.enumerated().map { offset, lot in
            var lot = lot
            lot.line = offset + 2
            return lot
        }
        let again = LotsCSV.lots(in: Data(text.utf8), file: file, today: today)
        fuzzInvariant(again == .success(expected), "lots written back read as \(again), not \(expected), from \(text.debugDescription)")
    }
}
