import Domain
import Foundation

/// The ledger's first line: the paper account opens with `startingCash`. Kept in the ledger rather than
/// read from the config at every start, so changing the config's starting cash later cannot rewrite
/// the history of an account that has traded; a new balance takes a new ledger file.
public struct PaperAccountOpened: Sendable, Hashable {
    public var startingCash: ExactDecimal
    public var time: Date

    public init(startingCash: ExactDecimal, time: Date) {
        self.startingCash = startingCash
        self.time = time
    }
}

extension PaperAccountOpened {
    init(from container: PaperLedgerDecoding) throws {
        self.init(
            startingCash: try container.decode(ExactDecimal.self, forKey: .startingCash),
            time: try container.decode(Date.self, forKey: .time))
    }

    /// `init(from:)` for a replay's fast path; nil wherever that one would not succeed the same way.
    init?(members: PaperLedgerMembers) {
        guard let startingCash = PaperLedgerMembers.decimal(members.startingCash),
              let time = PaperLedgerMembers.date(members.time)
        else { return nil }
        self.init(startingCash: startingCash, time: time)
    }

    func encode(to container: inout PaperLedgerEncoding) throws {
        try container.encode(startingCash, forKey: .startingCash)
        try container.encode(time, forKey: .time)
    }
}
