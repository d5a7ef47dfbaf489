import Domain
import Foundation
import Interactors
import Stores
import Testing

/// Issue 12: Esc closes every overlay, old messages never come back, the message log, adding what is
/// valid from mixed input, and a row that keeps its price through errors (issue 13, item 3).
@Suite struct MessagesAndOverlaysTests {
    @Test func escClosesTheAccountsPanelFirstThenDismissesTheMessage() {
        var driver = AppStateDriver(symbols: ["AAPL"], accountBrokers: [alpha])
        driver.press(.character("s"))
        #expect(driver.press(.character("A")) == [.fetchAccounts])
        #expect(driver.state.accounts != nil)
        #expect(driver.press(.escape) == [.stopFetchingAccounts])
        #expect(driver.state.accounts == nil)
        #expect(driver.state.message?.text == "Sorted by change %", "the first Esc only closes the panel")
        driver.press(.escape)
        #expect(driver.state.message == nil)
    }

    @Test func escClosesHelpAndTheMessageLog() {
        var driver = AppStateDriver(symbols: ["AAPL"])
        driver.press(.character("?"))
        #expect(driver.state.front == .help)
        driver.press(.escape)
        #expect(driver.state.front == .watchlist)
        driver.press(.character("m"))
        #expect(driver.state.front == .messageLog)
        driver.press(.escape)
        #expect(driver.state.front == .watchlist)
    }

    @Test func aCancelledPromptDoesNotBringBackAnOldMessage() {
        var driver = AppStateDriver(symbols: ["AAPL"])
        driver.press(.character("d"))
        #expect(driver.state.message?.text == "Removed AAPL · u to undo")
        driver.press(.character("a"), .escape)
        #expect(driver.state.message == nil)
        #expect(driver.state.messageLog.first?.text == "Removed AAPL · u to undo", "the log keeps it")
    }

    @Test func theMessageLogKeepsEveryMessageWithItsTime() {
        var driver = AppStateDriver(symbols: [])
        for second in 0..<3 {
            driver.now = t0.addingTimeInterval(Double(second))
            driver.press(second < 2 ? .character("s") : .character("u"))
        }
        #expect(driver.state.messageLog.map(\.text) == ["Sorted by change %", "Sorted by last", "Nothing to undo"])
        #expect(driver.state.messageLog.map(\.at) == [t0, t0.addingTimeInterval(1), t0.addingTimeInterval(2)])
    }

    @Test func theLogIsBounded() {
        var driver = AppStateDriver(symbols: [])
        for _ in 0..<(AppState.messageLogLimit + 7) { driver.press(.character("s")) }
        #expect(driver.state.messageLog.count == AppState.messageLogLimit)
    }

    /// Info messages fade on the clock's tick; errors stay until dismissed.
    @Test func infoMessagesFadeAndErrorsStay() {
        var driver = AppStateDriver(brokers: [alpha], symbols: ["AAPL"])
        driver.press(.character("s"))
        driver.now = t0.addingTimeInterval(StatusMessage.infoLifetime + 0.5)
        driver.send(.tick)
        #expect(driver.state.message == nil)
        driver.apply(MarketUpdate(brokerStates: ["alpha": .failed(reason: "unauthorized, check ALPHA_TOKEN")]))
        driver.now = t0.addingTimeInterval(3_600)
        driver.send(.tick)
        #expect(driver.state.message?.text == "Alpha: unauthorized, check ALPHA_TOKEN")
    }

    /// `tsla $$$` adds TSLA (as `tsla aapl` does), names what was not added and why, and the prompt keeps it.
    @Test func mixedInputAddsWhatIsValidAndKeepsTheRestInThePrompt() {
        var driver = AppStateDriver(symbols: ["AAPL"])
        driver.add("tsla $$$ aapl")
        #expect(driver.state.rows.map(\.key.symbol) == ["AAPL", "TSLA"])
        #expect(driver.state.front == .adding(TextPrompt(text: "$$$", error: "not added: $$$ contains '$'; use letters, digits, . - / ^")))
        #expect(driver.state.message?.text == "Added TSLA (already listed: AAPL) · not added: $$$ contains '$'; use letters, digits, . - / ^")
    }

    @Test func aSymbolsRunSaysEditsAreNotSaved() {
        var driver = AppStateDriver(symbols: ["AAPL"], isSaved: false)
        driver.add("ibm")
        #expect(driver.state.message?.text == "Added IBM (this run only: --symbols lists are not saved)")
        #expect(driver.state.viewState().isSaved == false)
    }

    /// Several start-up notes are logged one by one and shown together as the most severe kind.
    @Test func startUpNotesAreLoggedEachAndShownTogether() {
        let state = AppState(
            brokers: [alpha], symbols: [], settings: AppState.Settings(isDemo: true),
            initialMessages: [StatusMessage(.info, "Tradier: sandbox polls", at: t0), StatusMessage(.warning, "config readable by others", at: t0)])
        #expect(state.message == StatusMessage(.warning, "Tradier: sandbox polls · config readable by others", at: t0))
        #expect(state.messageLog.count == 2)
    }

    @Test func aBrokerThatGivesUpIsAnnouncedInFullOnce() {
        var driver = AppStateDriver(symbols: ["AAPL"])
        driver.apply(MarketUpdate(brokerStates: ["alpha": .failed(reason: "unauthorized, check ALPHA_TOKEN")]))
        #expect(driver.state.message == StatusMessage(.error, "Alpha: unauthorized, check ALPHA_TOKEN", at: t0))
        driver.press(.escape)
        driver.apply(MarketUpdate(brokerStates: ["alpha": .failed(reason: "unauthorized, check ALPHA_TOKEN")]))
        #expect(driver.state.message == nil)
    }

    /// A row that has a price keeps it when its broker later fails for it (a 500, a bad body): the error is
    /// the footer's and the status line's to tell.
    @Test func aRowWithAPriceKeepsItThroughErrors() {
        var driver = AppStateDriver(symbols: ["AAPL", "MSFT"])
        let key = QuoteKey(brandID: "alpha", symbol: "AAPL")
        driver.apply(MarketUpdate(quotes: [key: quote("AAPL", exactDecimal("495.13"))]))
        driver.apply(MarketUpdate(failures: [key: .server(status: 500)]))
        #expect(driver.state.rows.first?.quote?.last == exactDecimal("495.13"))
        #expect(driver.state.rows.first?.error == nil)
        driver.apply(MarketUpdate(brokerStates: ["alpha": .reconnecting(attempt: 2, reason: "reset")]))
        #expect(driver.state.rows.first?.error == nil)
        // A row without a price says why.
        driver.apply(MarketUpdate(failures: [QuoteKey(brandID: "alpha", symbol: "MSFT"): .unknownSymbol("MSFT")]))
        #expect(driver.state.rows.last?.error == "unknown symbol")
    }
}
