import Domain
import Foundation
import Interactors
import Testing
@testable import CommonBrokerApp

/// `columns`, `sparklineMinutes` and `crossBroker` (issue 17, items 1, 2 and 7).
@Suite struct ColumnsConfigTests {
    private func load(_ text: String) -> Result<AppConfig, ConfigError> {
        AppConfig.load(contentsOf: text, path: "config.json")
    }

    private func message(_ text: String) -> String {
        switch load(text) {
        case .success: "loaded without error"
        case .failure(let error): error.description
        }
    }

    @Test func defaultsShowEveryColumnATenMinuteSparklineAndA50BasisPointThreshold() throws {
        let config = try load("{}").get()
        #expect(config.columns == WatchlistColumn.defaultOrder)
        #expect(config.sparklineMinutes == 10)
        #expect(config.crossBroker.outlierBasisPoints == 50)
    }

    @Test func columnsChooseAndOrder() throws {
        let config = try load(#"{"columns": ["symbol", "sparkline", "last", "bid", "ask", "disagreement"]}"#).get()
        #expect(config.columns == [.symbol, .sparkline, .last, .bid, .ask, .disagreement])
    }

    @Test func anUnknownColumnIsNamedWithTheValidNames() {
        let text = message(#"{"columns": ["symbol", "prise"]}"#)
        #expect(text.contains("\"columns[1]\" must be one of \"symbol\", \"broker\", \"last\""), "\(text)")
        #expect(text.contains("\"sparkline\""))
        #expect(text.contains("found \"prise\""))
    }

    @Test func aRepeatedColumnIsAnErrorNamingTheFirstPlace() {
        let text = message(#"{"columns": ["symbol", "bid", "ask", "bid"]}"#)
        #expect(text.contains("\"columns[3]\" repeats \"bid\" (already columns[1]); list each column once, from: symbol, broker, last"), "\(text)")
    }

    @Test func symbolIsRequiredAndTheShapeIsChecked() {
        #expect(message(#"{"columns": ["last", "bid"]}"#).contains("\"columns\" has no \"symbol\"; a row must say what it quotes"))
        #expect(message(#"{"columns": []}"#).contains("has no \"symbol\""))
        #expect(message(#"{"columns": "symbol"}"#).contains("\"columns\" must be an array of column names"))
        #expect(message(#"{"columns": [3]}"#).contains("\"columns[0]\" must be a string"))
    }

    @Test func sparklineMinutesIsWithinTheHistorysSpan() throws {
        #expect(try load(#"{"sparklineMinutes": 30}"#).get().sparklineMinutes == 30)
        #expect(message(#"{"sparklineMinutes": 31}"#).contains("\"sparklineMinutes\" must be between 1 and 30, found 31"))
        #expect(message(#"{"sparklineMinutes": 0}"#).contains("must be between 1 and 30"))
    }

    @Test func outlierBasisPointsIsAnExactDecimalInRange() throws {
        #expect(try load(#"{"crossBroker": {"outlierBasisPoints": 12.5}}"#).get().crossBroker.outlierBasisPoints == ExactDecimal(parsing: "12.5"))
        #expect(message(#"{"crossBroker": {"outlierBasisPoints": 0}}"#).contains("\"crossBroker.outlierBasisPoints\" must be between 0.01 and 10000"))
        #expect(message(#"{"crossBroker": {"outlier": 5}}"#).contains("crossBroker.outlier"))
    }

    @Test func theExampleFileDocumentsTheCrossBrokerSection() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("config.example.json"), encoding: .utf8)
        let document = try JSONDocument.parse(text, path: "config.example.json", repeatableKeyPrefix: "//").get()
        let keys = Set((document.root["crossBroker"]?.objectMembers ?? []).map(\.key).filter { !$0.hasPrefix("//") })
        #expect(keys == Set(AppConfig.CrossBroker.validKeys))
    }
}
