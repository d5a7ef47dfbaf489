/// A whole JSON text, parsed with positions kept. Our own parser exists because Foundation's
/// JSONSerialization and JSONDecoder on Linux report errors without a line and column.
public struct JSONDocument: Sendable, Equatable {
    /// Deep enough for any configuration; shallow enough that hostile input cannot exhaust the stack.
    public static let defaultMaximumDepth = 64

    public let path: String
    public let root: JSONValue

    /// Parses `text` (RFC 8259, plus a leading byte-order mark). `path` only labels error messages.
    /// Keys starting with `repeatableKeyPrefix` may occur more than once in an object, which lets a
    /// file carry several `"//"` comment members; every other duplicate key is an error.
    public static func parse(
        _ text: String,
        path: String,
        maximumDepth: Int = defaultMaximumDepth,
        repeatableKeyPrefix: String? = nil
    ) -> Result<JSONDocument, JSONSyntaxError> {
        var parser = JSONParser(
            text: text, path: path, maximumDepth: maximumDepth, repeatableKeyPrefix: repeatableKeyPrefix
        )
        do throws(JSONSyntaxError) {
            return .success(JSONDocument(path: path, root: try parser.parseDocument()))
        } catch {
            return .failure(error)
        }
    }
}
