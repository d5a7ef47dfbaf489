/// Hands out curses color pair numbers on first use, so only the color combinations a screen uses
/// take pairs (terminals may offer as few as 64).
struct CursesColorPairTable: Sendable {
    /// COLOR_PAIRS: pairs 1..<capacity are ours; 0 is the terminal's defaults.
    let capacity: Int
    private var numbers: [CursesColorPair: Int16] = [:]

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The pair for `colors` and whether it is new (the caller must `init_pair` it). When the table is
    /// full, pair 0: the text stays readable in default colors rather than taking a wrong color.
    mutating func number(for colors: CursesColorPair) -> (number: Int16, isNew: Bool) {
        if let existing = numbers[colors] { return (existing, false) }
        let next = numbers.count + 1
        guard next < capacity, next <= Int(Int16.max) else { return (0, false) }
        numbers[colors] = Int16(next)
        return (Int16(next), true)
    }
}
