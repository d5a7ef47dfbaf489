import Foundation

/// Makes text from outside (broker names, errors, symbols, messages) safe to put on screen.
public enum TerminalText {
    /// Shown in place of a character that would not take exactly one cell.
    public static let placeholder: Character = "\u{FFFD}"
    public static let ellipsis: Character = "…"

    /// Removes everything that could steer the terminal or reorder the line: C0 and C1 controls,
    /// whole escape sequences (CSI, OSC, DCS, SOS, PM, APC and two-byte ESC sequences), DEL and bidi
    /// embedding, override and isolate controls. Tabs and line breaks become one space each (CR LF is
    /// one line break).
    public static func sanitize(_ s: String) -> String {
        if isPrintableASCII(s) { return s }
        var scanner = EscapeSequenceScanner(Array(s.unicodeScalars))
        var output = String.UnicodeScalarView()
        while let scalar = scanner.next() {
            output.append(scalar)
        }
        return String(output)
    }

    /// The characters of `s` as terminal cells, one `Character` per cell: zero-width characters
    /// (combining marks that do not compose, joiners, bidi controls) are skipped, and anything
    /// that is not exactly one cell wide (East Asian wide, emoji, controls) becomes `placeholder`,
    /// so a column never shifts whatever a broker sends.
    public static func cells(_ s: String) -> [Character] {
        if isPrintableASCII(s) { return s.utf8.map { Character(Unicode.Scalar($0)) } }
        var result: [Character] = []
        result.reserveCapacity(s.utf8.count)
        for character in s {
            if let cell = cell(for: character) {
                result.append(cell)
            }
        }
        return result
    }

    /// Nothing to remove or replace, and one cell per byte: what most text on screen is.
    static func isPrintableASCII(_ s: String) -> Bool {
        s.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
            ?? s.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// The cells of text from outside, sanitized, as scalar values appended to `out`; returns how many.
    /// Printable ASCII (symbols, most names) is already safe and one cell per byte, so it skips the
    /// Unicode work.
    @discardableResult
    static func appendSanitizedCells(of s: String, to out: inout [UInt32]) -> Int {
        let start = out.count
        let appended = s.utf8.withContiguousStorageIfAvailable { bytes in
            // A lazy map over the bytes costs a dozen instructions a byte; symbols are most of a frame's text.
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return false }
            out.reserveCapacity(out.count + bytes.count)
            for byte in bytes { out.append(UInt32(byte)) }
            return true
        }
        if appended == true {
            return out.count - start
        }
        if isPrintableASCII(s) {
            out.append(contentsOf: s.utf8.lazy.map(UInt32.init))
        } else {
            for character in cells(sanitize(s)) {
                out.append(character.unicodeScalars.first?.value ?? placeholder.unicodeScalars.first!.value)
            }
        }
        return out.count - start
    }

    /// One character as one cell, or nil when it takes no room.
    public static func cell(for character: Character) -> Character? {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let scalar = scalars.first {
            if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F ? placeholder : character }
            return cell(for: scalar)
        }
        // "e" + U+0301 composes to one scalar; whatever does not compose keeps only its base.
        let composed = String(character).precomposedStringWithCanonicalMapping.unicodeScalars
        guard let base = composed.first else { return nil }
        let rest = composed.dropFirst()
        if rest.isEmpty { return cell(for: base) }
        // VS16 asks for emoji presentation, which terminals draw two cells wide.
        if rest.contains(where: { $0.value == 0xFE0F || CharacterWidth($0) != .zero }) {
            return placeholder
        }
        return cell(for: base)
    }

    private static func cell(for scalar: Unicode.Scalar) -> Character? {
        switch CharacterWidth(scalar) {
        case .zero: nil
        case .single: Character(scalar)
        case .double, .unsafe: placeholder
        }
    }

    /// How many cells `s` takes once drawn.
    public static func width(_ s: String) -> Int {
        cells(s).count
    }

    /// `s` in at most `width` cells, ending in "…" when it had to be cut.
    public static func truncate(_ s: String, toWidth width: Int) -> String {
        String(truncatedCells(s, toWidth: width))
    }

    static func truncatedCells(_ s: String, toWidth width: Int) -> [Character] {
        let all = cells(s)
        guard width > 0 else { return [] }
        guard all.count > width else { return all }
        return Array(all.prefix(width - 1)) + [ellipsis]
    }
}

/// Walks scalars and drops escape sequences and controls; see `TerminalText.sanitize`.
private struct EscapeSequenceScanner {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    mutating func next() -> Unicode.Scalar? {
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar.value {
            case 0x0D:
                if index < scalars.count, scalars[index].value == 0x0A { index += 1 }
                return " "
            case 0x09, 0x0A, 0x0B, 0x0C, 0x85, 0x2028, 0x2029:
                return " "
            case 0x1B:
                skipEscapeSequence()
            case 0x9B:
                skipControlSequence()
            case 0x9D, 0x90, 0x98, 0x9E, 0x9F:
                skipControlString()
            case 0x00...0x1F, 0x7F...0x9F:
                continue
            // Bidirectional controls (ALM, LRM, RLM, LRE…RLO, LRI…PDI) reorder what follows them. A
            // `switch` rather than a `Set`: this runs for every scalar drawn, and a set's probe length
            // depends on the process's random hash seed (the 1,000-row frame took 0.65 or 1.1 ms).
            case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                continue
            default:
                return scalar
            }
        }
        return nil
    }

    /// After ESC. ECMA-48: `[` starts a control sequence, `]` `P` `X` `^` `_` a control string,
    /// anything else is intermediates (0x20–0x2F) then one final byte.
    private mutating func skipEscapeSequence() {
        guard index < scalars.count else { return }
        let introducer = scalars[index].value
        index += 1
        switch introducer {
        case 0x5B: skipControlSequence()
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F: skipControlString()
        case 0x20...0x2F:
            while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
            if index < scalars.count, (0x30...0x7E).contains(scalars[index].value) { index += 1 }
        default:
            break
        }
    }

    /// CSI: parameter and intermediate bytes up to a final byte 0x40–0x7E. A malformed sequence ends
    /// at the first byte outside those ranges, which is dropped too.
    private mutating func skipControlSequence() {
        while index < scalars.count {
            let value = scalars[index].value
            index += 1
            if !(0x20...0x3F).contains(value) { return }
        }
    }

    /// OSC, DCS and friends run to ST (ESC \ or U+009C); xterm also ends OSC at BEL.
    private mutating func skipControlString() {
        while index < scalars.count {
            let value = scalars[index].value
            index += 1
            switch value {
            case 0x07, 0x9C: return
            case 0x1B:
                if index < scalars.count, scalars[index].value == 0x5C { index += 1 }
                return
            default: continue
            }
        }
    }
}
