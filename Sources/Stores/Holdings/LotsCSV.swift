import Domain
import Foundation

/// Reads the lots of a CSV file for the holdings book. What it accepts:
///
/// - CSV as RFC 4180 writes it (the details are `CSVReader`'s): values separated by commas, in double
///   quotes when they hold a comma, a quote or a line break, with `""` for a quote inside quotes; CRLF,
///   LF or CR line breaks; UTF-8, with or without a byte order mark. Empty lines are skipped.
/// - A header row first, naming the columns in any order and any case: `date`, `symbol`, `quantity` and
///   `price` are required, `fees` and `broker` optional. Any other column, or one named twice, is an error.
/// - Then one lot per row, one value per column, spaces around a value ignored:
///   - `date`: the trade day as `YYYY-MM-DD` (2024-03-15), a real day, years 1000…9999, not after today;
///   - `symbol`: 1–15 letters, digits, `. - / ^` in any case, kept upper-cased (`brk.b` is `BRK.B`);
///   - `quantity`: shares, positive when bought, negative when sold (short, or out of an earlier lot);
///     fractions allowed; not zero;
///   - `price`: per share, zero or more;
///   - `fees`: what the trade cost on top (commission and fees), zero or more; empty means 0;
///   - `broker`: where the shares are held, up to 32 characters (`Fidelity IRA`); empty means none.
///   Numbers are plain decimals read exactly, never through `Double` (`ExactDecimal(parsing:)`): `150.25`,
///   `-10`, `0.5`, `1e3`; no `$`, no thousands separators, no `+`, no bare `.5`; digits beyond the 8th
///   decimal are rounded to 8.
///
/// Every bad value is reported at its line and column, not only the first, and any error means no lot
/// at all: a file is imported whole or not at all.
public enum LotsCSV {
    /// How many errors a rejection lists; it counts the rest.
    public static let maximumReportedErrors = 20

    /// The columns a header may name.
    enum Column: String, CaseIterable, Sendable {
        case date, symbol, quantity, price, fees, broker

        var isRequired: Bool { self != .fees && self != .broker }
    }

    /// The lots of `data`, in file order, or every error (up to `maximumReportedErrors`). `file` names the
    /// file in messages; `today` is the last day a lot may have been traded.
    public static func lots(in data: Data, file: String, today: TradeDate) -> Result<[ManualLot], LotsFileRejection> {
        let (records, syntaxErrors) = CSVReader.read(data, file: file)
        var errors = syntaxErrors
        func rejection() -> Result<[ManualLot], LotsFileRejection> {
            // Stable: errors at one place stay in the order they were found.
            let sorted = errors.enumerated().sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }.map(\.element)
            return .failure(LotsFileRejection(file: file, errors: Array(sorted.prefix(maximumReportedErrors)), totalCount: sorted.count))
        }
        guard let header = records.first else {
            if errors.isEmpty {
                errors.append(LotsFileError(
                    file: file, position: TextPosition(line: 1, column: 1), problem: "the file holds no header and no lots", found: nil,
                    fix: "start with the header date,symbol,quantity,price,fees,broker, then one lot a line"))
            }
            return rejection()
        }
        let columns: [Column]
        switch self.columns(of: header, file: file) {
        case .success(let found): columns = found
        case .failure(let headerErrors):
            errors += headerErrors.errors
            return rejection()
        }
        if records.count == 1 && errors.isEmpty {
            var next = header.end
            next.line += 1
            next.column = 1
            errors.append(LotsFileError(
                file: file, position: next, problem: "the file holds a header but no lots", found: nil,
                fix: "add one lot a line after the header, e.g. 2024-03-15,AAPL,10,150.25"))
        }
        var lots: [ManualLot] = []
        // A row whose quoting is broken is reported once, for its quoting, not again for its values. Rows
        // and these positions are both in file order, so one pass over each finds them: asking every row
        // about every error took 11 s for an export of 20,000 rows with a stray quote in each.
        let quotingErrors = syntaxErrors.map(\.position).sorted()
        var nextQuotingError = 0
        for record in records.dropFirst() {
            while nextQuotingError < quotingErrors.count, quotingErrors[nextQuotingError] < record.position { nextQuotingError += 1 }
            if nextQuotingError < quotingErrors.count, quotingErrors[nextQuotingError] <= record.end { continue }
            switch lot(from: record, columns: columns, file: file, today: today) {
            case .success(let lot): lots.append(lot)
            case .failure(let rowErrors): errors += rowErrors.errors
            }
        }
        return errors.isEmpty ? .success(lots) : rejection()
    }

    /// The header's columns in order, or every problem with it.
    static func columns(of header: CSVRecord, file: String) -> Result<[Column], LotsFileRejection> {
        var columns: [Column] = []
        var errors: [LotsFileError] = []
        func error(_ field: CSVField, _ problem: String, found: String?, fix: String) {
            errors.append(LotsFileError(file: file, position: field.position, problem: problem, found: found, fix: fix))
        }
        var firstAt: [Column: TextPosition] = [:]
        var suggested: Set<Column> = []
        for (index, field) in header.fields.enumerated() {
            let name = trimmed(field.text)
            guard let column = Column(rawValue: name.lowercased()) else {
                if index == 0, looksLikeData(name) {
                    error(field, "the first row is not a header", found: name,
                          fix: "add a first line naming the columns, e.g. date,symbol,quantity,price,fees,broker")
                    return .failure(LotsFileRejection(file: file, errors: errors, totalCount: errors.count))
                }
                if name.isEmpty {
                    error(field, "a column has no name", found: nil, fix: "name it (\(allNames)) or remove it, and any comma at the end of the header")
                } else {
                    let meant = likelyMeant(name)
                    if let meant { suggested.insert(meant) }
                    error(field, "unknown column", found: name, fix: (meant.map { "if it holds the \($0.rawValue), name it \($0.rawValue); " } ?? "")
                        + "the columns are \(allNames), in any order")
                }
                continue
            }
            if let first = firstAt[column] {
                error(field, "the \(column.rawValue) column is named twice", found: name, fix: "keep one of them (the first is at \(first))")
                continue
            }
            firstAt[column] = field.position
            columns.append(column)
        }
        // A column already suggested for an unknown name is not reported missing as well.
        let missing = Column.allCases.filter { $0.isRequired && firstAt[$0] == nil && !suggested.contains($0) }
        if !missing.isEmpty {
            let names = missing.map(\.rawValue)
            errors.append(LotsFileError(
                file: file, position: header.position,
                problem: "the header has no \(listed(names)) column" + (names.count > 1 ? "s" : ""),
                found: header.fields.map(\.text).joined(separator: ","),
                fix: "every lot needs date, symbol, quantity and price; fees and broker are optional"))
        }
        return errors.isEmpty ? .success(columns) : .failure(LotsFileRejection(file: file, errors: errors, totalCount: errors.count))
    }

    /// The lot in `record`, or every problem with its values.
    static func lot(from record: CSVRecord, columns: [Column], file: String, today: TradeDate) -> Result<ManualLot, LotsFileRejection> {
        var errors: [LotsFileError] = []
        func failure() -> Result<ManualLot, LotsFileRejection> {
            .failure(LotsFileRejection(file: file, errors: errors, totalCount: errors.count))
        }
        if record.fields.count < columns.count {
            errors.append(LotsFileError(
                file: file, position: record.end,
                problem: "this row has \(record.fields.count) value\(record.fields.count == 1 ? "" : "s") but the header names \(columns.count) columns",
                found: nil, fix: "give every column a value, in the header's order (\(columns.map(\.rawValue).joined(separator: ","))); leave an optional one empty between its commas"))
            return failure()
        }
        if record.fields.count > columns.count {
            let extra = record.fields[columns.count]
            errors.append(LotsFileError(
                file: file, position: extra.position, problem: "a value beyond the header's \(columns.count) columns", found: extra.text,
                fix: "remove it; a value that holds a comma needs quotes, and numbers take no thousands separators"))
            return failure()
        }
        var values: [Column: CSVField] = [:]
        for (column, field) in zip(columns, record.fields) { values[column] = field }
        func report<T>(_ result: Result<T, LotsFileError>) -> T? {
            switch result {
            case .success(let value): return value
            case .failure(let error):
                errors.append(error)
                return nil
            }
        }
        let reader = LotValueReader(file: file, end: record.end)
        let date = report(reader.date(values[.date], today: today))
        let symbol = report(reader.symbol(values[.symbol]))
        let quantity = report(reader.quantity(values[.quantity]))
        let price = report(reader.price(values[.price]))
        let fees = report(reader.fees(values[.fees]))
        let label = report(reader.brokerLabel(values[.broker]))
        guard let date, let symbol, let quantity, let price, let fees, let label else { return failure() }
        let lot = ManualLot(date: date, symbol: symbol, quantity: quantity, price: price, fees: fees, brokerLabel: label, line: record.position.line)
        do {
            _ = try lot.cost()
        } catch {
            errors.append(LotsFileError(
                file: file, position: values[.quantity]?.position ?? record.position,
                problem: "quantity × price + fees is beyond ±90000000000", found: "\(quantity) × \(price)",
                fix: "check the quantity and the price"))
            return failure()
        }
        return .success(lot)
    }

    /// `date, symbol, quantity, price, fees, broker`.
    static var allNames: String { Column.allCases.map(\.rawValue).joined(separator: ", ") }

    /// Spaces and tabs around a value are not part of it: `2024-03-15, AAPL, 10` is common in hand-written files.
    static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
    }

    /// A first row that starts with a date or a number is a lot, not a header.
    private static func looksLikeData(_ text: String) -> Bool {
        TradeDate.isShapedLikeDate(text) || ExactDecimal(parsing: text) != nil
    }

    /// The column a header name that is not one of ours most likely means: names brokers' exports use.
    private static func likelyMeant(_ name: String) -> Column? {
        let lowered = name.lowercased()
        let synonyms: [(Column, [String])] = [
            (.date, ["trade date", "tradedate", "trade_date", "day", "acquired", "date acquired", "purchase date"]),
            (.symbol, ["ticker", "sym", "instrument", "security"]),
            (.quantity, ["qty", "shares", "amount", "units", "quantities"]),
            (.price, ["cost", "unit price", "price per share", "cost per share", "prices"]),
            (.fees, ["fee", "commission", "commissions", "costs"]),
            (.broker, ["account", "brokerage", "custodian", "broker label", "label"]),
        ]
        return synonyms.first { $0.1.contains(lowered) }?.0
    }

    /// `price`, `price and fees`, `date, price and fees`.
    private static func listed(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
