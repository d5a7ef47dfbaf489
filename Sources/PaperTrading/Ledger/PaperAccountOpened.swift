import Domain
import Foundation

/// The ledger's first line: the paper account opens with `startingCash`. Kept in the ledger rather than
/// read from the config at every start, so changing the config's starting cash later cannot rewrite
/// the history of an account that has traded; a new balance takes a new ledger file.
public struct PaperAccountOpened: Sendable, Hashable, Codable {
    public var startingCash: ExactDecimal
    public var time: Date

    public init(startingCash: ExactDecimal, time: Date) {
        self.startingCash = startingCash
        self.time = time
    }
}
