import Domain
import Foundation
import Interactors
import Testing
import TerminalKit
@testable import TerminalUI

/// What the footer says of the bus: who leads each broker, and a follower that lost the bus.
@Suite struct BusFooterTests {
    typealias F = WatchlistFixture

    @Test func eachRouteInItsLongAndShortForm() {
        #expect(BrokerFooter.describe(.direct, long: true) == nil, "without a bus the footer is as before")
        #expect(BrokerFooter.describe(.leader, long: true) == "leader")
        #expect(BrokerFooter.describe(.follower(leader: "desk-7:4242"), long: true) == "via bus (leader: desk-7:4242)")
        #expect(BrokerFooter.describe(.follower(leader: "desk-7:4242"), long: false) == "via bus")
        #expect(BrokerFooter.describe(.follower(leader: nil), long: true) == "via bus (no leader)")
        #expect(BrokerFooter.describe(.directWithoutBus(reason: "refused"), long: true) == "direct, bus unreachable")
        #expect(BrokerFooter.describe(.busLost(reason: "gone"), long: true) == "bus lost, not live")
    }

    @Test func aLeaderNameFromTheBusIsSanitizedAndCut() {
        let hostile = "evil\u{1B}]0;pwned\u{07}host-with-a-very-long-name-that-goes-on:1"
        let text = BrokerFooter.describe(.follower(leader: hostile), long: true) ?? ""
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(text.count <= "via bus (leader: )".count + 32)
    }

    @Test func snapshotsOfABusFooter() {
        let brokers = [
            BrokerStatus(branding: F.alpha, state: .live, route: .leader),
            BrokerStatus(branding: F.beta, state: .live, route: .follower(leader: "desk-7:4242")),
        ]
        Snapshot.expect(F.render(F.state(brokers: brokers), columns: 120, rows: 12), matches: "bus-footer-120x12")
        Snapshot.expect(F.render(F.state(brokers: brokers), columns: 80, rows: 12), matches: "bus-footer-80x12")
        let lost = [
            BrokerStatus(branding: F.alpha, state: .retrying(at: F.now, after: .network("bus")), route: .busLost(reason: "the bus is unreachable")),
            BrokerStatus(branding: F.beta, state: .live, route: .directWithoutBus(reason: "refused")),
        ]
        Snapshot.expect(F.render(F.state(brokers: lost), columns: 120, rows: 12), matches: "bus-footer-lost-120x12")
    }

    @Test func aLostBusIsShownInTheFailureColour() {
        let palette = Palette(RenderOptions())
        let lost = [BrokerStatus(branding: F.alpha, state: .retrying(at: F.now, after: .network("bus")), route: .busLost(reason: "x"))]
        let frame = F.render(F.state(brokers: lost), columns: 120, rows: 12)
        let footerRow = frame.size.rows - 1
        let line = Snapshot.text(of: frame).split(separator: "\n").last.map(String.init) ?? ""
        guard let range = line.range(of: "bus lost") else {
            Issue.record("the footer should say bus lost: \(line)")
            return
        }
        let column = line.distance(from: line.startIndex, to: range.lowerBound) - 1
        #expect(frame[column, footerRow].style == palette.connection(.failed(reason: "")))
    }
}
