/// A command line that cannot be obeyed. The message names the offending argument and points to
/// `--help`; the caller prefixes "commonbroker: " and exits with status 2.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
