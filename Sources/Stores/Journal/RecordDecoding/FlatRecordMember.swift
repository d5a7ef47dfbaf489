/// One member of a flat record: its name (the text between the quotes) and its value. Both point into
/// the record's bytes and are valid only while those are.
public struct FlatRecordMember {
    public let name: UnsafeRawBufferPointer
    public let value: FlatRecordValue

    @inlinable
    init(name: UnsafeRawBufferPointer, value: FlatRecordValue) {
        self.name = name
        self.value = value
    }

    /// Whether the member's name is `literal`.
    @inlinable
    public func isNamed(_ literal: StaticString) -> Bool {
        FlatRecordValue.bytes(name, equal: literal)
    }
}
