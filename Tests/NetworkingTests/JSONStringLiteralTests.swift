import Foundation
import Networking
import Testing

@Suite struct JSONStringLiteralTests {
    @Test(arguments: [
        ("BRK/B", #""BRK/B""#),
        (#"say "hi"\"#, #""say \"hi\"\\""#),
        ("a\nb\rc\td", #""a\nb\rc\td""#),
        ("\u{1B}[2J\u{07}", #""\u001b[2J\u0007""#),
        ("\u{9B}31m\u{7F}", #""\u009b31m\u007f""#),
        ("株式 €", #""株式 €""#),
    ])
    func quotesExactlyAndEscapesEveryControl(text: String, literal: String) throws {
        #expect(JSONStringLiteral.quoted(text) == literal)
        // And any JSON parser reads back the original.
        let parsed = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed) as? String
        #expect(parsed == text)
    }
}
