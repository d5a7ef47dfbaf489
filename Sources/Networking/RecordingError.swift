/// Why a recordings folder cannot be written or read. Said at start-up, before any request.
public enum RecordingError: Error, Sendable, Hashable, CustomStringConvertible {
    case cannotCreateDirectory(String, reason: String)
    case cannotWrite(String, reason: String)
    case cannotReadDirectory(String, reason: String)
    case noRecordings(String)
    /// A recording file that is not a recording: names the file and what is wrong with it.
    case corruptRecording(file: String, reason: String)

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason): "cannot create recordings folder \(path): \(reason)"
        case .cannotWrite(let file, let reason): "cannot write recording \(file): \(reason)"
        case .cannotReadDirectory(let path, let reason): "cannot read recordings folder \(path): \(reason)"
        case .noRecordings(let path): "no recordings in \(path); record some with --record DIR"
        case .corruptRecording(let file, let reason): "recording \(file) is corrupt (\(reason)); fix or delete it, or record again"
        }
    }
}
