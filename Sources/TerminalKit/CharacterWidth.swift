/// How many terminal cells a Unicode scalar takes, decided without the C library: `wcwidth` depends on
/// the process locale, and the frame must look the same in tests (C locale) and in the app (UTF-8).
/// The table is UAX #11's Wide and Fullwidth blocks plus emoji presentation, which is what terminals
/// draw two cells wide.
public enum CharacterWidth: Sendable, Hashable {
    case zero
    case single
    case double
    /// Controls, unassigned and private-use scalars: the terminal may do anything with them.
    case unsafe

    public init(_ scalar: Unicode.Scalar) {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .surrogate, .privateUse, .unassigned:
            self = .unsafe
            return
        case .nonspacingMark, .enclosingMark, .spacingMark, .format:
            self = .zero
            return
        default:
            break
        }
        let value = scalar.value
        // Hangul medial vowels and final consonants join the preceding syllable.
        if (0x1160...0x11FF).contains(value) {
            self = .zero
            return
        }
        if properties.isEmojiPresentation || Self.isEastAsianWide(value) {
            self = .double
            return
        }
        self = .single
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        // Regional indicators: a lone one is drawn one or two cells depending on the terminal.
        0x1F1E6...0x1F1FF,
        0x16FE0...0x16FE4, 0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isEastAsianWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        return wideRanges.contains { $0.contains(value) }
    }
}
