import Interactors
import TerminalKit
import Testing
import TerminalUI

/// Every theme at the four sizes: the text is the same whatever the theme (a theme never moves
/// anything), and each theme's colors are recorded as a color map (`ColorMap`) at 256 colors.
@Suite struct ThemeSnapshotTests {
    typealias F = WatchlistFixture
    static let sizes = [(200, 50), (120, 35), (80, 24), (60, 20)]

    @Test(arguments: ThemeName.allCases)
    func eachThemeAtEachSize(theme: ThemeName) {
        for (columns, rows) in Self.sizes {
            var state = F.state()
            state.theme = theme
            var options = F.utc
            options.colorDepth = .indexed256
            let frame = F.render(state, columns: columns, rows: rows, options: options)
            Snapshot.expect(frame, matches: "themes-\(columns)x\(rows)")
            Snapshot.expect(text: ColorMap.text(of: frame), matches: "theme-\(theme.rawValue)-\(columns)x\(rows)-colors")
        }
    }
}
