import Locking

/// How a KV bucket's stream is made (the stream `KV_<bucket>` on `$KV.<bucket>.>`, as every NATS client
/// makes it; ADR-8, https://github.com/nats-io/nats-architecture-and-design/blob/main/adr/ADR-8.md).
public struct NATSKeyValueBucketConfiguration: Sendable, Hashable {
    public enum Storage: String, Sendable, Hashable {
        case file
        case memory
    }

    /// Values kept per key; 1 keeps only the latest.
    public var history: Int
    /// Values older than this disappear (nil: never). For the whole bucket: JetStream 2.9 has no
    /// per-key expiry.
    public var maxAge: Duration?
    /// 1, or 3 (or 5) in a cluster, so the bucket survives a node.
    public var replicas: Int
    public var storage: Storage
    public var maxValueSize: Int?

    public init(history: Int = 1, maxAge: Duration? = nil, replicas: Int = 1, storage: Storage = .file, maxValueSize: Int? = nil) {
        self.history = history
        self.maxAge = maxAge
        self.replicas = replicas
        self.storage = storage
        self.maxValueSize = maxValueSize
    }

    /// The `$JS.API.STREAM.CREATE` request (https://docs.nats.io/reference/jetstream/api/stream/create):
    /// `allow_direct` lets `get` read with a direct get from any replica; `deny_delete` and
    /// `allow_rollup_hdrs` are what nats.go sets for a bucket, so other tools see an ordinary bucket.
    struct StreamRequest: Encodable {
        var name: String
        var subjects: [String]
        var retention = "limits"
        var maxMsgsPerSubject: Int
        var maxAge: Int64
        var maxMsgSize: Int
        var storage: String
        var numReplicas: Int
        var discard = "new"
        var duplicateWindow: Int64
        var allowRollupHdrs = true
        var denyDelete = true
        var allowDirect = true

        enum CodingKeys: String, CodingKey {
            case name, subjects, retention, storage, discard
            case maxMsgsPerSubject = "max_msgs_per_subject"
            case maxAge = "max_age"
            case maxMsgSize = "max_msg_size"
            case numReplicas = "num_replicas"
            case duplicateWindow = "duplicate_window"
            case allowRollupHdrs = "allow_rollup_hdrs"
            case denyDelete = "deny_delete"
            case allowDirect = "allow_direct"
        }
    }

    func streamRequest(bucket: String) -> StreamRequest {
        let maxAgeNanoseconds = maxAge?.wholeNanoseconds ?? 0
        // nats.go: two minutes, or the bucket's max age when that is shorter.
        let twoMinutes: Int64 = 120_000_000_000
        let window = maxAgeNanoseconds > 0 ? min(maxAgeNanoseconds, twoMinutes) : twoMinutes
        return StreamRequest(
            name: "KV_" + bucket, subjects: ["$KV.\(bucket).>"], maxMsgsPerSubject: max(1, history), maxAge: maxAgeNanoseconds,
            maxMsgSize: maxValueSize ?? -1, storage: storage.rawValue, numReplicas: max(1, replicas), duplicateWindow: window)
    }
}
