import Foundation

/// A JetStream key-value bucket (ADR-8, https://github.com/nats-io/nats-architecture-and-design/blob/main/adr/ADR-8.md):
/// the stream `KV_<bucket>` over the subjects `$KV.<bucket>.<key>`, each key's value its latest message.
///
/// - `put` publishes to `$KV.<bucket>.<key>` and waits for JetStream's ack (`{"stream": …, "seq": N}`):
///   N is the value's revision.
/// - `create` and `update` add `Nats-Expected-Last-Subject-Sequence` (0 for "no value yet", else the
///   revision the caller read): JetStream refuses the write (error 10071, "wrong last sequence") if
///   another value got there first. That is what a lease or a leader election is built on.
/// - `get` is a direct get, `$JS.API.DIRECT.GET.KV_<bucket>.$KV.<bucket>.<key>` (nats-server 2.9+;
///   the stream has `allow_direct`), answered with the message itself and `Nats-Sequence`,
///   `Nats-Time-Stamp` headers, or `NATS/1.0 404 Message Not Found`.
/// - `watch` is an ordered push consumer (see `NATSKeyValueWatch`).
///
/// Keys: `-/_=.A-Za-z0-9`, tokens separated by `.`; `NATSTokenEscaping` makes any text one legal token.
public struct NATSKeyValue: Sendable {
    public let connection: NATSConnection
    public let bucket: String
    /// For each API call and publication ack.
    public var timeout: Duration

    public var streamName: String { "KV_" + bucket }
    var subjectPrefix: String { "$KV.\(bucket)." }

    /// A handle on an existing bucket (nothing is sent).
    public init(bucket: String, connection: NATSConnection, timeout: Duration = .seconds(5)) throws(NATSError) {
        if let problem = Self.bucketNameProblem(bucket) { throw .invalidConfiguration("KV bucket name \"\(bucket)\" \(problem)") }
        self.bucket = bucket
        self.connection = connection
        self.timeout = timeout
    }

    /// Creates the bucket's stream, or finds it there with the same configuration (JetStream answers an
    /// identical create with success). A bucket that exists with another configuration is an error
    /// (`streamNameInUse`): changing it is an operator's decision.
    public static func create(
        bucket: String, configuration: NATSKeyValueBucketConfiguration = NATSKeyValueBucketConfiguration(),
        connection: NATSConnection, timeout: Duration = .seconds(5)
    ) async throws(NATSError) -> NATSKeyValue {
        let keyValue = try NATSKeyValue(bucket: bucket, connection: connection, timeout: timeout)
        let subject = "$JS.API.STREAM.CREATE." + keyValue.streamName
        let reply = try await keyValue.apiRequest(subject, body: configuration.streamRequest(bucket: bucket))
        let answer = try decode(APIResponse.self, from: reply, subject: subject)
        if let error = answer.error { throw .jetStream(sanitized(error)) }
        return keyValue
    }

    // MARK: - Writing

    /// Sets `key` to `value`, whatever was there. Returns the new revision.
    @discardableResult
    public func put(_ key: String, _ value: [UInt8]) async throws(NATSError) -> UInt64 {
        try await publish(key, value, headers: nil)
    }

    /// Sets `key` only if it has no value (never set, deleted, or purged); otherwise
    /// `.wrongLastRevision`. Returns the new revision.
    @discardableResult
    public func create(_ key: String, _ value: [UInt8]) async throws(NATSError) -> UInt64 {
        do {
            return try await publish(key, value, headers: NATSHeaders([(Self.expectedLastSubjectSequence, "0")]))
        } catch {
            guard case .wrongLastRevision = error else { throw error }
            // A delete leaves a marker, so the key's last sequence is not 0; nats.go's Create then writes
            // over the marker with that revision expected, as if the key had none.
            guard let last = try await entry(key), last.operation != .put else { throw error }
            return try await update(key, value, expectedRevision: last.revision)
        }
    }

    /// Sets `key` only if its latest revision is `expectedRevision`; otherwise `.wrongLastRevision`.
    @discardableResult
    public func update(_ key: String, _ value: [UInt8], expectedRevision: UInt64) async throws(NATSError) -> UInt64 {
        try await publish(key, value, headers: NATSHeaders([(Self.expectedLastSubjectSequence, String(expectedRevision))]))
    }

    /// Deletes `key` by writing a delete marker (only if its revision is `expectedRevision`, when given).
    @discardableResult
    public func delete(_ key: String, expectedRevision: UInt64? = nil) async throws(NATSError) -> UInt64 {
        var headers = NATSHeaders([(NATSKeyValueEntry.operationHeader, NATSKeyValueEntry.Operation.delete.rawValue)])
        if let expectedRevision { headers.append(Self.expectedLastSubjectSequence, String(expectedRevision)) }
        return try await publish(key, [], headers: headers)
    }

    // MARK: - Reading

    /// The value of `key`; nil when it has none (never set, or deleted).
    public func get(_ key: String) async throws(NATSError) -> NATSKeyValueEntry? {
        guard let entry = try await entry(key), entry.operation == .put else { return nil }
        return entry
    }

    /// Watches the keys matching `keys` (a key, or a pattern with `*` and `>`): first the latest value of
    /// each, then `.caughtUp`, then every change as it happens. `idleHeartbeat` is how often the server
    /// says the consumer is alive; three missed mean it was lost with its server (a cluster node that
    /// died), and the watch makes another. The watch's work runs on the caller's actor, if any, where
    /// its events are read.
    public func watch(
        _ keys: String = ">", bufferLimit: Int = 65_536, idleHeartbeat: Duration = NATSKeyValueWatch.defaultIdleHeartbeat,
        isolation actor: isolated (any Actor)? = #isolation
    ) throws(NATSError) -> NATSKeyValueWatch {
        if let problem = Self.keyProblem(keys, allowingWildcards: true) { throw .invalidSubject(keys, reason: "as a KV key pattern \(problem)") }
        return NATSKeyValueWatch(
            keyValue: self, filterSubject: subjectPrefix + keys, bufferLimit: bufferLimit, idleHeartbeat: idleHeartbeat, driverIsolation: actor)
    }

    /// The latest message of `key`, a delete marker included.
    func entry(_ key: String) async throws(NATSError) -> NATSKeyValueEntry? {
        try validate(key)
        let subject = "$JS.API.DIRECT.GET.\(streamName).\(subjectPrefix)\(key)"
        let reply: NATSMessage
        do {
            reply = try await connection.request(subject, timeout: timeout)
        } catch {
            if case .noResponders = error { throw .jetStreamUnavailable(subject: subject) }
            throw error
        }
        if let status = reply.statusCode {
            if status == 404 { return nil }
            throw .jetStream(NATSJetStreamAPIError(code: status, errorCode: nil, detail: Self.visible(reply.headers?.statusDescription ?? "")))
        }
        guard let headers = reply.headers, let revision = headers["Nats-Sequence"].flatMap(UInt64.init) else {
            throw .unexpectedResponse("direct get of \(key) answered without a Nats-Sequence header")
        }
        return NATSKeyValueEntry(
            bucket: bucket, key: key, value: reply.payload, revision: revision,
            created: headers["Nats-Time-Stamp"].flatMap(NATSTimestamp.parse), operation: NATSKeyValueEntry.operation(of: headers))
    }

    // MARK: - Names

    /// nats.go's `validBucketRe`.
    public static func bucketNameProblem(_ name: String) -> String? {
        guard !name.isEmpty else { return "is empty" }
        guard name.utf8.allSatisfy({ isWordByte($0) }) else { return "may hold only letters, digits, '-' and '_'" }
        return nil
    }

    /// nats.go's `validKeyRe`: `-/_=.A-Za-z0-9`, no empty token; a pattern may also use `*` and `>` tokens.
    public static func keyProblem(_ key: String, allowingWildcards: Bool = false) -> String? {
        guard !key.isEmpty else { return "is empty" }
        let tokens = key.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        for (index, token) in tokens.enumerated() {
            guard !token.isEmpty else { return "has an empty token (a leading, trailing or doubled '.')" }
            if allowingWildcards, token.elementsEqual("*".utf8) || (token.elementsEqual(">".utf8) && index == tokens.count - 1) { continue }
            guard token.allSatisfy({ isWordByte($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "=") }) else {
                return "may hold only letters, digits and '-', '_', '/', '=', '.' (NATSTokenEscaping makes any text a legal token)"
            }
        }
        return nil
    }

    // MARK: - Private

    static let expectedLastSubjectSequence = "Nats-Expected-Last-Subject-Sequence"

    private struct APIResponse: Decodable {
        var error: NATSJetStreamAPIError?
    }

    private struct PublishAck: Decodable {
        var stream: String?
        var seq: UInt64?
        var error: NATSJetStreamAPIError?
    }

    private func validate(_ key: String) throws(NATSError) {
        if let problem = Self.keyProblem(key) { throw .invalidSubject(key, reason: "as a KV key \(problem)") }
    }

    private func publish(_ key: String, _ value: [UInt8], headers: NATSHeaders?) async throws(NATSError) -> UInt64 {
        try validate(key)
        let subject = subjectPrefix + key
        let reply: NATSMessage
        do {
            reply = try await connection.request(subject, payload: value, headers: headers, timeout: timeout)
        } catch {
            if case .noResponders = error { throw .jetStreamUnavailable(subject: subject) }
            throw error
        }
        let ack = try Self.decode(PublishAck.self, from: reply, subject: subject)
        if let error = ack.error {
            if error.errorCode == NATSJetStreamAPIError.wrongLastSequence {
                // "wrong last sequence: 7"
                let current = error.detail.split(separator: ":").last.flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
                throw .wrongLastRevision(key: key, current: current)
            }
            throw .jetStream(Self.sanitized(error))
        }
        guard let sequence = ack.seq else { throw .unexpectedResponse("the ack of \(subject) holds no sequence") }
        return sequence
    }

    func apiRequest(_ subject: String, body: some Encodable) async throws(NATSError) -> NATSMessage {
        let payload: [UInt8]
        do {
            payload = try Array(JSONEncoder().encode(body))
        } catch {
            throw .unexpectedResponse("cannot encode the request to \(subject)")
        }
        do {
            return try await connection.request(subject, payload: payload, timeout: timeout)
        } catch {
            if case .noResponders = error { throw .jetStreamUnavailable(subject: subject) }
            throw error
        }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from reply: NATSMessage, subject: String) throws(NATSError) -> Value {
        if let status = reply.statusCode, reply.payload.isEmpty {
            throw .jetStream(NATSJetStreamAPIError(code: status, errorCode: nil, detail: visible(reply.headers?.statusDescription ?? "")))
        }
        do {
            return try JSONDecoder().decode(type, from: Data(reply.payload))
        } catch {
            throw .unexpectedResponse("the answer on \(subject) is not the expected JSON: \"\(visible(String(decoding: reply.payload.prefix(120), as: UTF8.self)))\"")
        }
    }

    static func sanitized(_ error: NATSJetStreamAPIError) -> NATSJetStreamAPIError {
        NATSJetStreamAPIError(code: error.code, errorCode: error.errorCode, detail: visible(error.detail))
    }

    /// Server text in errors: printable ASCII, at most 200 characters.
    static func visible(_ text: String) -> String {
        WebSocketHandshake.sanitized(text, limit: 200)
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
