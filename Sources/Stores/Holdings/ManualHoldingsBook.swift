/// Holdings kept elsewhere: the lots of every CSV file imported, in the order they were imported, each
/// file's lots together with its fingerprint. Positions are worked out from the lots whenever asked
/// (`positions()`), so the lots are the only truth and nothing can drift from them.
public struct ManualHoldingsBook: Sendable, Hashable {
    public private(set) var imports: [ManualImport]

    public init(imports: [ManualImport] = []) {
        self.imports = imports
    }

    /// Every lot, in the order imported (files in order, each file's lots in file order).
    public var lots: [ManualLot] { imports.flatMap(\.lots) }

    public var isEmpty: Bool { imports.allSatisfy(\.lots.isEmpty) }

    /// The most recent import of a file with these bytes, if any.
    public func latestImport(sha256: String) -> ManualImport? {
        imports.last { $0.sha256 == sha256 }
    }

    public mutating func append(_ newImport: ManualImport) {
        imports.append(newImport)
    }
}
