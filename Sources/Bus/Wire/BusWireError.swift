/// Why something read from the bus was refused: short, printable, never the bytes themselves.
public struct BusWireError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
