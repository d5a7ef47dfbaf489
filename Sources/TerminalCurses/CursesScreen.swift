import CNcursesw
import TerminalKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The curses screen. Every call into curses in the program goes through here, on the UI thread.
final class CursesScreen {
    private(set) var size: ScreenSize
    private let screen: OpaquePointer
    private let colorMode: CursesColorMode
    /// What themes may use, from curses' COLORS, can_change_color and COLORTERM.
    let colorDepth: ColorDepth
    /// COLORS ≥ 2^24: curses takes colors as 0xRRGGBB above 7, so palette entries are sent as their RGB.
    private let isDirectColor: Bool
    private let canChangeColor: Bool
    /// The frame's truecolor definitions as last applied.
    private var definitions: [ColorDefinition] = []
    private var pairs: CursesColorPairTable
    private var writer = CursesFrameWriter()
    private var cursorVisible = false
    /// Scratch for `draw(_:of:)`.
    private var runCells: [cchar_t] = []
    /// `look(_:)`'s last answer; forgotten when the color pairs are made anew.
    private var lastLook: (styleBits: UInt64, attributes: attr_t, pair: Int16)?
    private var isOpen = true

    /// Used when terminfo lacks a capability: leave the alternate screen, show the cursor, reset attributes.
    static let fallbackResetSequence = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

    /// Takes over the terminal. Signal handlers must already be installed (`TerminalSignals.install()`).
    init(color: Bool, mouse: Bool = false) throws(TerminalError) {
        setlocale(LC_ALL, "")
        // Esc alone must feel immediate; 25 ms still joins the bytes of an arrow key's sequence.
        set_escdelay(25)
        guard let screen = cb_newterm() else {
            throw .unsupportedTerminal(term: getenv("TERM").map { String(cString: $0) })
        }
        self.screen = screen
        cbreak()
        noecho()
        nonl()
        intrflush(cb_stdscr(), false)
        keypad(cb_stdscr(), true)
        // Read only after poll said stdin is readable; never block the loop in curses.
        nodelay(cb_stdscr(), true)
        curs_set(0)
        if color, has_colors() {
            start_color()
            colorMode = use_default_colors() == OK ? .withDefaultColors : .withoutDefaultColors
            let colors = Int(cb_colors())
            isDirectColor = colors >= ColorDepth.directColorThreshold
            canChangeColor = can_change_color()
            colorDepth = ColorDepth.detect(
                colorTerm: getenv("COLORTERM").map { String(cString: $0) }, colors: colors, canChangeColor: canChangeColor)
        } else {
            colorMode = .off
            isDirectColor = false
            canChangeColor = false
            colorDepth = .basic
        }
        if mouse {
            // Presses arrive at once rather than after a click interval.
            mouseinterval(0)
            _ = mousemask(cb_mouse_mask(), nil)
        }
        pairs = CursesColorPairTable(capacity: colorMode == .off ? 0 : Int(cb_color_pairs()))
        size = ScreenSize(columns: Int(cb_cols()), rows: Int(cb_lines()))
        TerminalSignals.armEmergencyRestore(resetSequence: Self.resetSequence())
        Self.bufferOutput()
    }

    /// Until a screen has once come back from `endwin`, ncurses (6.4, lib_mvcur.c) flushes its output
    /// after every cursor move, because it cannot tell a curses program's moves from a terminfo-level
    /// caller's: a frame of 20 changed prices went out as 20 write(2)s of 10–70 bytes, each waking the
    /// terminal on the other side of the pty. One round trip through `endwin` and `doupdate` (the path
    /// a Ctrl-Z and `fg` take) leaves that state, and a frame is then written whole at the end of
    /// `doupdate`. It happens before the first frame, on a screen still blank.
    private static func bufferOutput() {
        endwin()
        doupdate()
        // endwin switched the keypad's application mode off; curses switches it back only when asked.
        keypad(cb_stdscr(), true)
    }

    /// The bytes that undo what curses did to the terminal, precomputed for the crash path, which
    /// cannot call curses: attributes off, cursor visible, keypad transmit off, alternate screen off.
    private static func resetSequence() -> [UInt8] {
        var bytes: [UInt8] = []
        // oc: the palette back as it was, after a truecolor theme redefined entries.
        for capability in ["sgr0", "oc", "cnorm", "rmkx", "rmcup"] {
            if let value = cb_terminfo_string(capability) {
                bytes += Array(String(cString: value).utf8)
            }
        }
        return bytes.isEmpty ? fallbackResetSequence : bytes
    }

    /// Draws the cells that differ from the screen; an identical frame writes nothing at all.
    /// Draws what changed since the last frame; false when nothing did and nothing was written.
    @discardableResult
    func draw(_ frame: ScreenBuffer) -> Bool {
        if frame.colorDefinitions != definitions { define(frame.colorDefinitions) }
        let frame = CursesFrameWriter.fitted(frame, to: size)
        let cursorBefore = writer.onScreen?.cursor
        let spans = writer.changes(to: frame)
        let cursorMoved = cursorBefore?.column != frame.cursor?.column || cursorBefore?.row != frame.cursor?.row
        guard !spans.isEmpty || cursorMoved else { return false }
        for span in spans {
            draw(span, of: frame)
        }
        if let cursor = frame.cursor {
            if !cursorVisible { curs_set(1); cursorVisible = true }
            wmove(cb_stdscr(), Int32(cursor.row), Int32(cursor.column))
        } else if cursorVisible {
            curs_set(0)
            cursorVisible = false
        }
        wnoutrefresh(cb_stdscr())
        doupdate()
        return true
    }

    /// Writes `span`'s cells of `frame` to curses' screen, read from the frame's codes: a string per
    /// span, iterated again by character, cost more than the curses calls (and joined a combining mark
    /// in a cell of its own with the cell before, leaving the span's last cell as it was).
    private func draw(_ span: CellSpan, of frame: ScreenBuffer) {
        frame.withCodes(row: span.row, columns: span.column..<(span.column + span.width)) { codes in
            guard let first = codes.first else { return }
            let (attributes, pair) = look(CellCode.styleBits(of: first))
            // `runCells` is reused from span to span: a frame's spans cost more in allocations than in
            // curses otherwise.
            runCells.removeAll(keepingCapacity: true)
            var single: (wchar_t, wchar_t) = (0, 0)
            for code in codes {
                var cell = cchar_t()
                switch CursesGlyph.cell(code: code, in: frame, width: { cb_wcwidth($0) }) {
                case .scalar(let value):
                    single.0 = wchar_t(bitPattern: value)
                    _ = withUnsafePointer(to: &single) { pointer in
                        pointer.withMemoryRebound(to: wchar_t.self, capacity: 2) { setcchar(&cell, $0, attributes, pair, nil) }
                    }
                case .scalars(let values):
                    var wide = values.map { wchar_t(bitPattern: $0) }
                    wide.append(0)
                    _ = setcchar(&cell, wide, attributes, pair, nil)
                }
                runCells.append(cell)
            }
            // add_wchnstr neither wraps nor scrolls, so the bottom-right cell is safe to write.
            _ = mvwadd_wchnstr(cb_stdscr(), Int32(span.row), Int32(span.column), runCells, Int32(runCells.count))
        }
    }

    /// The curses attributes and color pair of cells of `styleBits` (`CellCode.styleBits`), the last
    /// answer kept: a row's spans mostly share one style.
    private func look(_ styleBits: UInt64) -> (attr_t, Int16) {
        if let lastLook, lastLook.styleBits == styleBits { return (lastLook.attributes, lastLook.pair) }
        let style = CursesCellStyle(CellCode.style(of: styleBits), colorMode: colorMode)
        let answer = (attributes(style.attributes), pairNumber(style.colors))
        lastLook = (styleBits, answer.0, answer.1)
        return answer
    }

    private func attributes(_ attributes: CursesCellStyle.Attributes) -> attr_t {
        var result = cb_attr_normal()
        if attributes.contains(.bold) { result |= cb_attr_bold() }
        if attributes.contains(.dim) { result |= cb_attr_dim() }
        if attributes.contains(.reverse) { result |= cb_attr_reverse() }
        if attributes.contains(.underline) { result |= cb_attr_underline() }
        return result
    }

    private func pairNumber(_ colors: CursesColorPair?) -> Int16 {
        guard let colors else { return 0 }
        let (number, isNew) = pairs.number(for: colors)
        if isNew { init_extended_pair(Int32(number), curses(colors.foreground), curses(colors.background)) }
        return number
    }

    /// A palette entry as curses takes it: itself, or its RGB on a direct-color terminal (whose 0…7
    /// stay the ANSI colors).
    private func curses(_ color: Int32) -> Int32 {
        guard isDirectColor, color >= 8, color <= 255 else { return color }
        let index = UInt8(color)
        let rgb = definitions.first { $0.color.index == index }?.rgb ?? XtermPalette.rgb(of: index)
        return Int32(rgb.hex)
    }

    /// Gives palette entries the RGB a truecolor theme asked for: curses redefines them in the terminal
    /// (init_extended_color, 0…1000 per channel), or, on a direct-color terminal, pairs are made anew
    /// with the RGB. Cells are redrawn either way.
    private func define(_ new: [ColorDefinition]) {
        definitions = new
        if !isDirectColor, canChangeColor {
            for definition in new {
                func scaled(_ channel: UInt8) -> Int32 { Int32(channel) * 1000 / 255 }
                _ = init_extended_color(
                    Int32(definition.color.index), scaled(definition.rgb.red), scaled(definition.rgb.green), scaled(definition.rgb.blue))
            }
        }
        pairs = CursesColorPairTable(capacity: pairs.capacity)
        lastLook = nil
        invalidate()
    }

    /// Drains curses' input. Call only after poll reported stdin readable. Each read is preceded by a
    /// zero-timeout poll: ncurses reads with a blocking read(2), and a UI thread stuck there would not
    /// see signals, redraw requests or stop() until the user pressed Enter.
    func readInput() -> [CursesInput] {
        var inputs: [CursesInput] = []
        var value: wint_t = 0
        // A bound, so a flood of pasted text cannot starve drawing and signals.
        while inputs.count < 4096, Self.inputIsWaiting(),
              let input = CursesInput(status: wget_wch(cb_stdscr(), &value), value: UInt32(value)) {
            if input == .keyCode(cb_key_mouse()) {
                if let event = Self.mouseEvent() { inputs.append(.mouse(event)) }
                continue
            }
            inputs.append(input)
        }
        return inputs
    }

    /// The mouse event behind a KEY_MOUSE, if it is one the watchlist uses.
    private static func mouseEvent() -> MouseEvent? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let kind: MouseEvent.Kind
        if cb_mouse_is_wheel_up(event.bstate) != 0 {
            kind = .wheelUp
        } else if cb_mouse_is_wheel_down(event.bstate) != 0 {
            kind = .wheelDown
        } else if cb_mouse_is_press(event.bstate) != 0 {
            kind = .press
        } else {
            return nil
        }
        return MouseEvent(kind, column: Int(event.x), row: Int(event.y))
    }

    private static func inputIsWaiting() -> Bool {
        var stdin = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&stdin, 1, 0) == 1 && stdin.revents & Int16(POLLIN) != 0
    }

    /// Whether we own the terminal. A background process that touches it (reads, or sets its modes) is
    /// stopped by SIGTTIN/SIGTTOU, and its reads would take keys meant for the shell.
    static var isForeground: Bool {
        tcgetpgrp(STDIN_FILENO) == getpgrp()
    }

    /// Takes the terminal's current size, resizing curses' screens if it changed; returns the size.
    func adoptTerminalSize() -> ScreenSize {
        var rows: Int32 = 0
        var columns: Int32 = 0
        if cb_window_size(STDOUT_FILENO, &rows, &columns) == 0, rows != cb_lines() || columns != cb_cols() {
            resizeterm(rows, columns)
        }
        size = ScreenSize(columns: Int(cb_cols()), rows: Int(cb_lines()))
        return size
    }

    /// Clears the screen on the next update and redraws every cell of the next frame.
    /// The terminal's bell (or its visible bell when it has no audible one), written at once.
    func ringBell() {
        _ = beep()
    }

    func invalidate() {
        wclear(cb_stdscr())
        writer.invalidate()
    }

    /// Ctrl-Z: gives the shell a normal terminal and stops the process; returns once it is continued.
    /// The caller then calls `resume()`, unless the process was continued in the background (`bg`).
    func suspend() {
        endwin()
        TerminalSignals.disarmEmergencyRestore()
        TerminalSignals.stopProcess()
    }

    /// Takes the terminal back after a stop (Ctrl-Z then `fg`, or kill -STOP then -CONT): curses' tty
    /// modes, the keypad's application mode (endwin switched it off and curses only switches it back
    /// when asked: otherwise arrows arrive as "ESC [ A" and decode as Esc, "[", "A"), and a repaint of
    /// every cell. The next doupdate re-enters the alternate screen.
    func resume() {
        TerminalSignals.armEmergencyRestore(resetSequence: Self.resetSequence())
        reset_prog_mode()
        keypad(cb_stdscr(), true)
        invalidate()
    }

    /// Gives the terminal back. Idempotent.
    func close() {
        guard isOpen else { return }
        isOpen = false
        if cursorVisible { curs_set(1) }
        endwin()
        delscreen(screen)
        TerminalSignals.disarmEmergencyRestore()
    }

    deinit {
        close()
    }
}
