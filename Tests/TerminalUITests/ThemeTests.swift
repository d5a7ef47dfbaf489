import Domain
import Interactors
import TerminalKit
import Testing
@testable import TerminalUI

/// Colors by role, per theme and per color depth: what the config may write, what each depth shows,
/// and that NO_COLOR wins.
@Suite struct ThemeTests {
    typealias F = WatchlistFixture
    static func screenRow(_ index: Int) -> Int { index + 2 }

    static func frame(_ theme: ThemeName, depth: ColorDepth, color: Bool = true, overrides: [ColorRole: ColorSpec] = [:]) -> ScreenBuffer {
        var state = F.state()
        state.theme = theme
        var options = color ? F.utc : F.monochrome
        options.colorDepth = depth
        options.colorOverrides = overrides
        return F.render(state, columns: 100, rows: 30, options: options)
    }

    static func upColors(_ frame: ScreenBuffer) -> Set<TerminalColor?> {
        Set(frame.cells(showing: "+2.34", row: screenRow(F.Index.upRow)).map(\.style.foreground))
    }

    static func downColors(_ frame: ScreenBuffer) -> Set<TerminalColor?> {
        Set(frame.cells(showing: "-3.38", row: screenRow(F.Index.downRow)).map(\.style.foreground))
    }

    /// The palette finds a role's and a brand's color by a switch: each must name its place in `allCases`,
    /// where the palette put the colors, or a row would take another role's color.
    @Test func everyRoleAndBrandSlotIsItsPlaceInAllCases() {
        #expect(ColorRole.allCases.map(\.slot) == Array(ColorRole.allCases.indices))
        #expect(BrandColor.allCases.map(Palette.brandSlot) == Array(BrandColor.allCases.indices))
    }

    @Test func aBrokersColorFromTheConfigPaintsItsGlyph() {
        var options = F.utc
        options.colorDepth = .indexed256
        let plain = F.render(F.state(), columns: 100, rows: 30, options: options)
        options.brokerColorOverrides = ["demo-alpha": .indexed(208)]
        let chosen = F.render(F.state(), columns: 100, rows: 30, options: options)
        let glyph = { (frame: ScreenBuffer) in
            Set(frame.lines.indices.flatMap { frame.cells(showing: "α Alpha Demo", row: $0).prefix(1).map(\.style.foreground) })
        }
        #expect(glyph(plain) == [TerminalColor(.cyan)])
        #expect(glyph(chosen) == [TerminalColor(index: 208)])
        // Other brokers keep their brand colors.
        let beta = { (frame: ScreenBuffer) in
            Set(frame.lines.indices.flatMap { frame.cells(showing: "β Beta Demo", row: $0).prefix(1).map(\.style.foreground) })
        }
        #expect(beta(chosen) == beta(plain))
    }

    @Test func colorsAreReadFromNamesNumbersAndHex() {
        #expect(ColorSpec(parsing: "green") == .basic(.green))
        #expect(ColorSpec(parsing: "Red") == .basic(.red))
        #expect(ColorSpec(parsing: "brightRed") == .indexed(9))
        #expect(ColorSpec(parsing: "brightwhite") == .indexed(15))
        #expect(ColorSpec(parsing: "gray") == .indexed(8))
        #expect(ColorSpec(parsing: "196") == .indexed(196))
        #expect(ColorSpec(parsing: "#00a000") == .rgb(RGBColor(red: 0, green: 0xA0, blue: 0)))
        #expect(ColorSpec(parsing: "#0A0") == .rgb(RGBColor(red: 0, green: 0xAA, blue: 0)))
        for bad in ["purple", "256", "-1", "#12345", "#gg0000", "", "bright", "0x00ff00"] {
            #expect(ColorSpec(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func eachDepthShowsTheColorOrTheNearestItHas() {
        let green = ColorSpec.rgb(RGBColor(hex: 0x00A000))
        #expect(green.resolved(at: .trueColor) == .rgb(RGBColor(hex: 0x00A000)))
        // xterm 34 is #00af00, the nearest of the 256.
        #expect(green.resolved(at: .indexed256) == .palette(TerminalColor(index: 34)))
        #expect(green.resolved(at: .basic) == .palette(.green))
        #expect(ColorSpec.indexed(196).resolved(at: .indexed256) == .palette(TerminalColor(index: 196)))
        #expect(ColorSpec.indexed(196).resolved(at: .basic) == .palette(.red))
        // A bright color on 8 colors is its plain form.
        #expect(ColorSpec.indexed(11).resolved(at: .basic) == .palette(.yellow))
        for depth in ColorDepth.allCases {
            #expect(ColorSpec.basic(.magenta).resolved(at: depth) == .palette(.magenta))
        }
    }

    @Test func depthIsDetectedFromCOLORTERMAndCursesColors() {
        #expect(ColorDepth.detect(colorTerm: nil, colors: 8, canChangeColor: false) == .basic)
        #expect(ColorDepth.detect(colorTerm: "truecolor", colors: 8, canChangeColor: true) == .basic)
        #expect(ColorDepth.detect(colorTerm: nil, colors: 256, canChangeColor: true) == .indexed256)
        #expect(ColorDepth.detect(colorTerm: "truecolor", colors: 256, canChangeColor: true) == .trueColor)
        #expect(ColorDepth.detect(colorTerm: "24bit", colors: 256, canChangeColor: true) == .trueColor)
        // The terminal says truecolor but curses cannot make RGB: the nearest of 256.
        #expect(ColorDepth.detect(colorTerm: "truecolor", colors: 256, canChangeColor: false) == .indexed256)
        // A direct-color terminfo type (xterm-direct).
        #expect(ColorDepth.detect(colorTerm: nil, colors: 1 << 24, canChangeColor: false) == .trueColor)
    }

    @Test func xtermPaletteMatchesXterm() {
        #expect(XtermPalette.rgb(of: 16) == RGBColor(hex: 0x000000))
        #expect(XtermPalette.rgb(of: 196) == RGBColor(hex: 0xFF0000))
        #expect(XtermPalette.rgb(of: 231) == RGBColor(hex: 0xFFFFFF))
        #expect(XtermPalette.rgb(of: 244) == RGBColor(hex: 0x808080))
        #expect(XtermPalette.nearest256(to: RGBColor(hex: 0xFF0000)) == TerminalColor(index: 196))
        #expect(XtermPalette.nearestBasic(to: RGBColor(hex: 0x0000A0)) == .blue)
    }

    @Test func darkIsTodaysLookAtEveryDepth() {
        let today = F.render(F.state(), columns: 100, rows: 30)
        for depth in ColorDepth.allCases {
            #expect(Self.frame(.dark, depth: depth) == today)
        }
        #expect(Self.upColors(today) == [.green])
        #expect(Self.downColors(today) == [.red])
    }

    @Test func lightDarkensUpAndDownWhereTheTerminalCan() {
        #expect(Self.upColors(Self.frame(.light, depth: .indexed256)) == [TerminalColor(index: 28)])
        #expect(Self.downColors(Self.frame(.light, depth: .indexed256)) == [TerminalColor(index: 124)])
        #expect(Self.upColors(Self.frame(.light, depth: .basic)) == [.green])
        #expect(Self.downColors(Self.frame(.light, depth: .basic)) == [.red])
        #expect(Self.upColors(Self.frame(.highContrast, depth: .indexed256)) == [TerminalColor(index: 10)])
        #expect(Self.downColors(Self.frame(.highContrast, depth: .indexed256)) == [TerminalColor(index: 9)])
    }

    /// On white, white and yellow text cannot be read: the light theme draws none, at any depth, even
    /// for a broker whose brand is yellow (Gamma's glyph).
    @Test func lightHasNoWhiteOrYellowText() {
        let unreadable: Set<UInt8> = [3, 7, 11, 15, 226, 227, 228, 229, 230, 231]
        for depth in ColorDepth.allCases {
            for front in [FrontScreen.watchlist, .help] {
                var state = F.state(front: front, brokers: [
                    BrokerStatus(branding: F.alpha, state: .live), BrokerStatus(branding: F.beta, state: .reconnecting(attempt: 2, reason: "timeout")),
                    BrokerStatus(branding: F.gamma, state: .failed(reason: "unauthorized")),
                ])
                state.theme = .light
                var options = F.utc
                options.colorDepth = depth
                let frame = F.render(state, columns: 100, rows: 30, options: options)
                let text = frame.cells.filter { $0.style.background == nil }.compactMap(\.style.foreground)
                #expect(!text.contains { unreadable.contains($0.index) }, "\(depth) \(front)")
            }
        }
    }

    @Test func monoAndNoColorDrawWithoutColors() {
        for depth in ColorDepth.allCases {
            let mono = Self.frame(.mono, depth: depth)
            #expect(mono.cells.allSatisfy { $0.style.foreground == nil && $0.style.background == nil })
            #expect(mono == F.render(F.state(), columns: 100, rows: 30, options: F.monochrome))
            // NO_COLOR (color off) wins over any theme and any color the config set.
            for theme in ThemeName.allCases {
                let off = Self.frame(theme, depth: depth, color: false, overrides: [.up: .basic(.blue)])
                #expect(off.cells.allSatisfy { $0.style.foreground == nil && $0.style.background == nil }, "\(theme)")
            }
        }
    }

    @Test func theConfigsColorsWinOverTheTheme() {
        let overrides: [ColorRole: ColorSpec] = [.up: .rgb(RGBColor(hex: 0x00A000)), .down: .basic(.magenta), .header: .indexed(21)]
        let indexed = Self.frame(.light, depth: .indexed256, overrides: overrides)
        #expect(Self.upColors(indexed) == [TerminalColor(index: 34)])
        #expect(Self.downColors(indexed) == [.magenta])
        #expect(indexed.cells(showing: "CommonBroker", row: 0).allSatisfy { $0.style.foreground == TerminalColor(index: 21) })
        #expect(indexed.colorDefinitions.isEmpty)
        // Truecolor: the RGB gets a palette entry of its own, which the frame defines.
        let rgb = Self.frame(.dark, depth: .trueColor, overrides: overrides)
        #expect(rgb.colorDefinitions == [ColorDefinition(color: TerminalColor(index: 255), rgb: RGBColor(hex: 0x00A000))])
        #expect(Self.upColors(rgb) == [TerminalColor(index: 255)])
        // The flash after an uptick uses the same color as its background.
        #expect(rgb.cells(showing: "131.07", row: Self.screenRow(F.Index.flashing)).allSatisfy { $0.style.background == TerminalColor(index: 255) })
        #expect(Self.frame(.dark, depth: .basic, overrides: overrides).colorDefinitions.isEmpty)
    }

    @Test func truecolorEntriesAvoidColorsTheThemeUses() {
        // 255 is taken by the header, so the RGB color goes to 254.
        let frame = Self.frame(.dark, depth: .trueColor, overrides: [.header: .indexed(255), .up: .rgb(RGBColor(hex: 0x123456)), .down: .rgb(RGBColor(hex: 0x123456))])
        #expect(frame.colorDefinitions == [ColorDefinition(color: TerminalColor(index: 254), rgb: RGBColor(hex: 0x123456))])
        #expect(Self.downColors(frame) == [TerminalColor(index: 254)])
    }
}
