import Domain
import Foundation
import TextSafety

/// Messages for the user that are not program output. Whatever part of a message came from outside, it
/// reaches the terminal escaped (`VisibleText`); the message's own line breaks are kept.
enum StandardError {
    static func write(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { VisibleText.escaped(String($0)) }
        let escaped = lines.joined(separator: "\n")
        FileHandle.standardError.write(Data((escaped.hasSuffix("\n") ? escaped : escaped + "\n").utf8))
    }
}
