import Foundation
import TextSafety

/// Makes text from outside (broker names, errors, symbols, messages) safe to put on screen.
public enum TerminalText {
    /// Shown in place of a character that would not take exactly one cell.
    public static let placeholder: Character = "\u{FFFD}"
    public static let ellipsis: Character = "…"

    /// Text from outside as it is shown: everything that could steer the terminal or reorder the line
    /// (C0 and C1 controls, so every escape sequence, DEL, bidi controls) spelled out as `\u{…}`, the
    /// same way stderr and `print` show it (`VisibleText`), so the user sees what was sent and it does
    /// nothing to the terminal.
    public static func sanitize(_ s: String) -> String {
        VisibleText.escaped(s)
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
    public static func isPrintableASCII(_ s: String) -> Bool {
        s.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
            ?? s.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// The cells of text from outside, sanitized, as scalar values appended to `out`; returns how many.
    /// Printable ASCII (symbols, most names) is already safe and one cell per byte, so it skips the
    /// Unicode work.
    @discardableResult
    public static func appendSanitizedCells(of s: String, to out: inout [UInt32]) -> Int {
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

    public static func truncatedCells(_ s: String, toWidth width: Int) -> [Character] {
        let all = cells(s)
        guard width > 0 else { return [] }
        guard all.count > width else { return all }
        return Array(all.prefix(width - 1)) + [ellipsis]
    }

    /// `cells` broken into lines of at most `width` cells, at the last space that fits (a word longer
    /// than a line is cut where the line ends). Spaces at a break are dropped.
    public static func wrap(_ cells: [Character], toWidth width: Int) -> [[Character]] {
        guard width > 0 else { return [] }
        var lines: [[Character]] = []
        var rest = cells[...]
        while !rest.isEmpty {
            while rest.first == " " { rest = rest.dropFirst() }
            guard !rest.isEmpty else { break }
            if rest.count <= width {
                lines.append(Array(rest))
                break
            }
            let window = rest.prefix(width + 1)
            let breakAt = window.lastIndex(of: " ").flatMap { $0 > rest.startIndex ? $0 : nil } ?? rest.index(rest.startIndex, offsetBy: width)
            var line = Array(rest[rest.startIndex..<breakAt])
            while line.last == " " { line.removeLast() }
            lines.append(line)
            rest = rest[breakAt...]
        }
        return lines
    }
}
