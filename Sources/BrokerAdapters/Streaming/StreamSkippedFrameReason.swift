import Domain
import TextSafety

/// Why a frame was skipped, as a short printable line. The decoders' failures name a byte offset and
/// what was expected, never the frame's text, which may hold anything the server sent.
enum StreamSkippedFrameReason {
    static let maximumLength = 80

    static func describe(_ error: any Error) -> String {
        let text = error is StreamJSONScanner.Failure ? String(describing: error) : "undecodable frame"
        return String(VisibleText.escaped(text).prefix(maximumLength))
    }
}
