import Domain
@testable import Networking
import Testing

/// Subjects, KV keys and the escaping that makes any ticker one legal token.
@Suite struct NATSNamingTests {
    @Test func tickersBecomeOneLegalTokenAndComeBack() {
        let cases = ["AAPL": "AAPL", "BRK.B": "BRK=2EB", "^GSPC": "=5EGSPC", "BF/B": "BF=2FB", "a=b": "a=3Db", "": "=", "CAFÉ": "CAF=C3=89", "A B*>": "A=20B=2A=3E"]
        for (text, token) in cases {
            #expect(NATSTokenEscaping.escape(text) == token)
            #expect(NATSTokenEscaping.unescape(token) == text)
            #expect(NATSKeyValue.keyProblem("quote.demo." + token) == nil, "\(token) is a legal key token")
            #expect(NATSSubject.publishProblem("$KV.b.quote.demo." + token) == nil)
        }
        for notEscaped in ["=2", "=2e", "=41", "a.b", "=ZZ", "=C3", "x y"] {
            #expect(NATSTokenEscaping.unescape(notEscaped) == nil, "\(notEscaped)")
        }
        var random = SplitMix64(seed: 77)
        for _ in 0..<500 {
            let scalars = (0..<Int(random.next() % 12)).compactMap { _ in Unicode.Scalar(UInt32(random.next() % 0x3000)) }
            let text = String(String.UnicodeScalarView(scalars))
            let token = NATSTokenEscaping.escape(text)
            #expect(NATSTokenEscaping.unescape(token) == text)
            #expect(!token.contains(".") && !token.contains("*") && !token.contains(">") && !token.isEmpty)
        }
    }

    @Test func subjectsAreCheckedBeforeAnythingIsSent() {
        #expect(NATSSubject.publishProblem("quote.demo.AAPL") == nil)
        #expect(NATSSubject.subscriptionProblem("quote.*.>") == nil)
        #expect(NATSSubject.publishProblem("quote.*") == "holds a wildcard ('*' or '>'), which only subscriptions may use")
        #expect(NATSSubject.subscriptionProblem("quote.>.x") == "has '>' before its last token")
        #expect(NATSSubject.publishProblem("a..b") == "has an empty token (a leading, trailing or doubled '.')")
        #expect(NATSSubject.publishProblem(".a") != nil && NATSSubject.publishProblem("a.") != nil)
        #expect(NATSSubject.publishProblem("a b") == "holds whitespace or a control character")
        #expect(NATSSubject.publishProblem("a\u{1B}") == "holds whitespace or a control character")
        #expect(NATSSubject.publishProblem("") == "is empty")
        #expect(NATSSubject.publishProblem(String(repeating: "a", count: 1025)) == "is longer than 1024 bytes")
        #expect(NATSSubject.queueGroupProblem("workers") == nil)
    }

    @Test func bucketNamesAndKeysFollowNatsGo() {
        #expect(NATSKeyValue.bucketNameProblem("commonbroker") == nil)
        #expect(NATSKeyValue.bucketNameProblem("has.dot") == "may hold only letters, digits, '-' and '_'")
        #expect(NATSKeyValue.keyProblem("demand.host-1=3A42.polygon") == nil)
        #expect(NATSKeyValue.keyProblem("quote.*.AAPL") != nil)
        #expect(NATSKeyValue.keyProblem("quote.*.AAPL", allowingWildcards: true) == nil)
        #expect(NATSKeyValue.keyProblem(">", allowingWildcards: true) == nil)
        #expect(NATSKeyValue.keyProblem("a.>.b", allowingWildcards: true) != nil)
    }
}
