/// One `"key": value` pair of an object. The key's own position is where "unknown key" errors point.
public struct JSONMember: Sendable, Equatable {
    public let key: String
    public let keyPosition: SourcePosition
    public let value: JSONValue

    public init(key: String, keyPosition: SourcePosition, value: JSONValue) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}
