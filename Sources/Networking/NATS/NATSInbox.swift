/// Names for reply subjects: `_INBOX.` and 22 random base-62 characters (about 131 bits, like nats.go's
/// NUID), unique enough that no other client on the server picks the same one. The generator is
/// passed in, so tests get fixed names.
enum NATSInbox {
    static let prefix = "_INBOX."

    static func make(using generator: inout some RandomNumberGenerator) -> String {
        prefix + token(using: &generator)
    }

    static func token(using generator: inout some RandomNumberGenerator, length: Int = 22) -> String {
        String((0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
}
