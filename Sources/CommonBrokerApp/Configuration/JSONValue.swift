/// A parsed JSON value that remembers where it starts in its file, so whoever interprets it can point
/// at the exact line and column of a wrong value.
public struct JSONValue: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case null
        case bool(Bool)
        case number(JSONNumber)
        case string(String)
        case array([JSONValue])
        /// Members in file order; duplicates only where the parser was told to allow them.
        case object([JSONMember])
    }

    public let kind: Kind
    public let position: SourcePosition

    public init(_ kind: Kind, at position: SourcePosition) {
        self.kind = kind
        self.position = position
    }

    /// The JSON name of this value's type, for "must be a number, found string" messages.
    public var typeName: String {
        switch kind {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The first member named `key`, when this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = kind else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    public var stringValue: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = kind { return b }
        return nil
    }

    public var numberValue: JSONNumber? {
        if case .number(let n) = kind { return n }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = kind { return a }
        return nil
    }

    public var objectMembers: [JSONMember]? {
        if case .object(let m) = kind { return m }
        return nil
    }

    public var isNull: Bool { kind == .null }
}
