/// A collection that arrives as a bare element when it has one member and as an array when it has two or
/// more (Tradier's rule for every collection, reference §1.2 and §1.3). `null` and the string `"null"`,
/// which Tradier sends for some empty collections, decode as no elements.
public struct OneOrMany<Element: Decodable>: Decodable {
    public var elements: [Element]

    public init(_ elements: [Element]) {
        self.elements = elements
    }

    public init(from decoder: any Decoder) throws {
        // Asking for an unkeyed container first tells an array from a single element without
        // decoding twice, so a malformed array member reports its own path, not "expected an object".
        if var array = try? decoder.unkeyedContainer() {
            var elements: [Element] = []
            if let count = array.count { elements.reserveCapacity(count) }
            while !array.isAtEnd {
                elements.append(try array.decode(Element.self))
            }
            self.elements = elements
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() || (try? single.decode(String.self)) == "null" {
            elements = []
        } else {
            elements = [try single.decode(Element.self)]
        }
    }
}

extension OneOrMany: Sendable where Element: Sendable {}
extension OneOrMany: Equatable where Element: Equatable {}
extension OneOrMany: Hashable where Element: Hashable {}
