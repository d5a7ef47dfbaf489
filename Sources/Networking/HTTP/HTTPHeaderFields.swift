import Foundation

/// A request's header fields: one value per name, names compared without regard to case (RFC 9110 §5.1),
/// kept in the order of their lowercased names, so the bytes written and the recordings made never depend
/// on a dictionary's order. Setting a name that is already present replaces the field.
///
/// Names are stored as `String.capitalized` spells them (`APCA-API-KEY-ID` becomes `Apca-Api-Key-Id`), as
/// swift-corelibs-foundation's `URLRequest.setValue(_:forHTTPHeaderField:)` stored them "to match native
/// Foundation": the bytes sent and the recordings made did not change when `URLRequest` went. Values are
/// kept as given; one that holds CR, LF or NUL (which `URLRequest` silently dropped, field and all) makes
/// `HTTPOutgoingRequest` refuse the request instead.
public struct HTTPHeaderFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Field: Sendable, Hashable {
        public let name: String
        public let value: String
    }

    /// Sorted by `Self.key(of:)`; no two share a key.
    private var fields: [Field] = []

    public init() {}

    /// Names that differ only in case are one field; the value of the one whose exact name sorts last
    /// wins, so the result does not depend on the dictionary's order.
    public init(_ dictionary: [String: String]) {
        for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) { self[name] = value }
    }

    /// A later name that differs from an earlier one only in case replaces it.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// The value of the field named `name` in any case; setting nil removes the field.
    public subscript(name: String) -> String? {
        get {
            let (found, position) = index(of: name)
            return found ? fields[position].value : nil
        }
        set {
            let (found, position) = index(of: name)
            switch (found, newValue) {
            case (true, let value?): fields[position] = Field(name: name.capitalized, value: value)
            case (true, nil): fields.remove(at: position)
            case (false, let value?): fields.insert(Field(name: name.capitalized, value: value), at: position)
            case (false, nil): break
            }
        }
    }

    public var isEmpty: Bool { fields.isEmpty }
    public var count: Int { fields.count }

    /// The fields as a dictionary keyed by their names as stored (what a recording file holds).
    public var dictionary: [String: String] {
        Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, later in later })
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Where the field named `name` is, or where it would go. Linear: a request carries a handful of fields.
    private func index(of name: String) -> (found: Bool, position: Int) {
        let key = Self.key(of: name)
        for (position, field) in fields.enumerated() {
            let fieldKey = Self.key(of: field.name)
            if fieldKey == key { return (true, position) }
            if fieldKey > key { return (false, position) }
        }
        return (false, fields.count)
    }

    /// What names are compared and ordered by: the stored spelling, lowercased.
    private static func key(of name: String) -> String { name.capitalized.lowercased() }
}
