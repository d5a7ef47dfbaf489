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

    private static func tokenProblem(_ subject: String, wildcards: Bool) -> String? {
        if subject.isEmpty { return "is empty" }
        if subject.utf8.count > maxLength { return "is longer than \(maxLength) bytes" }
        if subject.utf8.contains(where: isForbidden) { return "holds whitespace or a control character" }
        let tokens = subject.utf8.split(separator: 0x2E, omittingEmptySubsequences: false)
        for (index, token) in tokens.enumerated() {
            if token.isEmpty { return "has an empty token (a leading, trailing or doubled '.')" }
            let isStar = token.elementsEqual("*".utf8)
            let isRest = token.elementsEqual(">".utf8)
            if isStar || isRest {
                if !wildcards { return "holds a wildcard ('*' or '>'), which only subscriptions may use" }
                if isRest, index != tokens.count - 1 { return "has '>' before its last token" }
            }
        }
        return nil
    }

    private static func isForbidden(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F
    }
}
