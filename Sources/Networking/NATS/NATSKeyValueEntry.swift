import Foundation

/// One value of a key in a JetStream KV bucket: the message on `$KV.<bucket>.<key>`. A delete leaves
/// a marker (`KV-Operation: DEL`, or `PURGE`) with an empty value, which `get` reports as no value and a
/// watch reports as an entry with that operation.
public struct NATSKeyValueEntry: Sendable, Hashable {
    public enum Operation: String, Sendable, Hashable {
        case put = "PUT"
        case delete = "DEL"
        case purge = "PURGE"
    }

    public var bucket: String
    public var key: String
    public var value: [UInt8]
    /// The stream sequence of the message: what a compare-and-set write names as the expected revision.
    public var revision: UInt64
    public var created: Date?
    public var operation: Operation
    /// From a watch: how many more messages the consumer had to deliver after this one.
    public var pending: UInt64?

    public init(bucket: String, key: String, value: [UInt8], revision: UInt64, created: Date?, operation: Operation, pending: UInt64? = nil) {
        self.bucket = bucket
        self.key = key
        self.value = value
        self.revision = revision
        self.created = created
        self.operation = operation
        self.pending = pending
    }

    static let operationHeader = "KV-Operation"

    static func operation(of headers: NATSHeaders?) -> Operation {
        headers?[operationHeader].flatMap(Operation.init(rawValue:)) ?? .put
    }
}
