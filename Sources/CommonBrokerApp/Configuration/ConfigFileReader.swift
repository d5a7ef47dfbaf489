import Foundation

/// Reads a config file as UTF-8 text, turning each way that can fail into a `ConfigError` that says
/// what to do about it.
enum ConfigFileReader {
    static func text(ofFileAt path: String) -> Result<String, ConfigError> {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(.fileNotFound(path: path))
        }
        if isDirectory.boolValue {
            return .failure(.unreadable(path: path, reason: "it is a directory; the config path must name a file"))
        }
        guard files.isReadableFile(atPath: path) else {
            return .failure(.unreadable(path: path, reason: "permission denied; check its owner and mode with ls -l"))
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            return .failure(.unreadable(path: path, reason: error.localizedDescription))
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            let where_ = firstInvalidUTF8Position(in: data).map { " at \($0)" } ?? ""
            return .failure(.unreadable(path: path, reason: "it is not UTF-8 text (invalid byte\(where_)); save it as UTF-8"))
        }
        return .success(text)
    }

    /// Line and column (in scalars, like the JSON parser's) of the first byte that is not UTF-8.
    static func firstInvalidUTF8Position(in data: Data) -> SourcePosition? {
        var decoder = UTF8()
        var bytes = data.makeIterator()
        var line = 1
        var column = 1
        while true {
            switch decoder.decode(&bytes) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                return nil
            case .error:
                return SourcePosition(line: line, column: column)
            }
        }
    }
}
