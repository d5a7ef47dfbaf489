/// What a subject may be (https://docs.nats.io/nats-concepts/subjects): tokens separated by `.`, none
/// empty, no whitespace or control characters anywhere. A subscription may use `*` for one whole token
/// and `>` for the whole rest as its last token; a publication names one subject, without wildcards.
/// Checked before anything is written, so a bad subject is an error for the caller instead of a
/// server `-ERR` that would cost the whole connection.
public enum NATSSubject {
    /// Generous for any key of ours, and well inside the server's 4 KiB control line with a reply
    /// subject and the sizes beside it.
    public static let maxLength = 1024

    /// Why `subject` cannot be published to, nil when it can.
    public static func publishProblem(_ subject: String) -> String? {
        tokenProblem(subject, wildcards: false)
    }

    /// Why `subject` cannot be subscribed to, nil when it can.
    public static func subscriptionProblem(_ subject: String) -> String? {
        tokenProblem(subject, wildcards: true)
    }

    /// A queue group name, or a single token such as a KV key part: no dots needed, none refused, but no
    /// whitespace or wildcards.
    public static func queueGroupProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.utf8.count > maxLength { return "is longer than \(maxLength) bytes" }
        if name.utf8.contains(where: isForbidden) { return "holds whitespace or a control character" }
        return nil
    }

    /// One pass over the bytes, no allocation: this runs for every publication.
    private static func tokenProblem(_ subject: String, wildcards: Bool) -> String? {
        let utf8 = subject.utf8
        let problem = utf8.withContiguousStorageIfAvailable { tokenProblem($0, wildcards: wildcards) }
        if let problem { return problem }
        return Array(utf8).withUnsafeBufferPointer { tokenProblem($0, wildcards: wildcards) }
    }

    private static func tokenProblem(_ bytes: UnsafeBufferPointer<UInt8>, wildcards: Bool) -> String? {
        if bytes.isEmpty { return "is empty" }
        if bytes.count > maxLength { return "is longer than \(maxLength) bytes" }
        var tokenStart = 0
        for index in 0...bytes.count {
            guard index == bytes.count || bytes[index] == 0x2E else {
                if isForbidden(bytes[index]) { return "holds whitespace or a control character" }
                continue
            }
            let length = index - tokenStart
            if length == 0 { return "has an empty token (a leading, trailing or doubled '.')" }
            if length == 1, bytes[tokenStart] == 0x2A || bytes[tokenStart] == 0x3E {
                if !wildcards { return "holds a wildcard ('*' or '>'), which only subscriptions may use" }
                if bytes[tokenStart] == 0x3E, index != bytes.count { return "has '>' before its last token" }
            }
            tokenStart = index + 1
        }
        return nil
    }

    private static func isForbidden(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F
    }
}
