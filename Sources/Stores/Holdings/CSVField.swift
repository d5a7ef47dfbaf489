/// One value of a CSV record: its text with the quoting undone (`"say ""hi"""` is `say "hi"`), and where
/// it starts (its opening quote, if quoted).
struct CSVField: Sendable, Hashable {
    var text: String
    var isQuoted: Bool
    var position: TextPosition
}

/// One CSV record: its values, and where it ends (just after its last value), which is where a missing
/// value is reported.
struct CSVRecord: Sendable, Hashable {
    var fields: [CSVField]
    var end: TextPosition

    var position: TextPosition { fields[0].position }
}
