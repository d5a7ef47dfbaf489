import TextSafety

/// CSV as RFC 4180 writes it, for `print --csv` and `print positions|orders --csv`: a header row, then
/// one record a row, each line ended by CRLF; a field holding a comma, a double quote or a line break is
/// put in double quotes, with each double quote in it doubled.
enum CSVDocument {
    /// `header`, then `rows`; nil is an empty field. Outside text (names, reasons) is escaped first
    /// (`VisibleText`), so no control character reaches a spreadsheet or a terminal: a line break in a
    /// broker's name arrives as the six characters `\u{a}`.
    static func text(header: [String], rows: [[String?]]) -> String {
        let lines = [record(header)] + rows.map { record($0.map { VisibleText.escaped($0 ?? "") }) }
        return lines.map { $0 + "\r\n" }.joined()
    }

    /// One record: `fields` quoted where they must be, separated by commas, without the line end.
    static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",")
    }

    /// `value` as one field: as it is, or in double quotes (quotes doubled) when it holds a comma, a
    /// double quote, a carriage return or a line feed.
    static func field(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
