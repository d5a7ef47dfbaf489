/// Why a text is not valid JSON, and where: `config.json:3:14: expected ',' or '}' after object member,
/// found '"'`. The message names what was expected and what was found, and a fix where one is likely.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let position: SourcePosition
    public let message: String

    public init(path: String, position: SourcePosition, message: String) {
        self.path = path
        self.position = position
        self.message = message
    }

    public var description: String { "\(path):\(position): \(message)" }
}
