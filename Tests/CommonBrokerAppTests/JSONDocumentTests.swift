import Testing
@testable import CommonBrokerApp

@Suite struct JSONDocumentTests {
    private func parse(_ text: String, maximumDepth: Int = JSONDocument.defaultMaximumDepth) -> Result<JSONDocument, JSONSyntaxError> {
        JSONDocument.parse(text, path: "config.json", maximumDepth: maximumDepth)
    }

    private func error(_ text: String) -> String {
        switch parse(text) {
        case .success: "parsed without error"
        case .failure(let error): error.description
        }
    }

    private func parsedRoot(_ text: String) -> JSONValue? {
        try? parse(text).get().root
    }

    // MARK: Valid documents

    @Test func valuesKnowTheirLineAndColumn() throws {
        let text = """
        {
          "a": [1, true],
          "b": { "c": null }
        }
        """
        let root = try #require(parsedRoot(text))
        #expect(root.position == SourcePosition(line: 1, column: 1))
        let members = try #require(root.objectMembers)
        #expect(members.map(\.key) == ["a", "b"])
        #expect(members[0].keyPosition == SourcePosition(line: 2, column: 3))
        #expect(members[0].value.position == SourcePosition(line: 2, column: 8))
        let array = try #require(members[0].value.arrayValue)
        #expect(array[0].numberValue?.intValue == 1)
        #expect(array[1].position == SourcePosition(line: 2, column: 12))
        #expect(array[1].boolValue == true)
        let c = try #require(root["b"]?["c"])
        #expect(c.isNull)
        #expect(c.position == SourcePosition(line: 3, column: 15))
    }

    @Test func stringEscapesDecode() {
        let value = parsedRoot(#""q\" b\\ s\/ \b\f\n\r\t é\u00e9 \uD83D\uDE00""#)
        #expect(value?.stringValue == "q\" b\\ s/ \u{08}\u{0C}\n\r\t éé 😀")
    }

    @Test func nonASCIICharactersCountAsOneColumn() {
        // "é" and "😀" are single scalars, so the error column is the same as for ASCII text.
        #expect(error(#"["é😀" x]"#) == "config.json:1:7: expected ',' or ']' after array element, found 'x'")
    }

    @Test func numbersKeepTheirLiteralAndValue() throws {
        let array = try #require(parsedRoot("[0, -12, 3.25, 1e3, -2.5E-2, 18446744073709551615]")?.arrayValue)
        let numbers = array.compactMap(\.numberValue)
        #expect(numbers.map(\.literal) == ["0", "-12", "3.25", "1e3", "-2.5E-2", "18446744073709551615"])
        #expect(numbers.map(\.doubleValue) == [0, -12, 3.25, 1000, -0.025, 18_446_744_073_709_551_616.0])
        #expect(numbers[1].intValue == -12)
        #expect(numbers[2].intValue == nil)
        #expect(numbers[3].intValue == 1000)
        #expect(numbers[5].uint64Value == UInt64.max)
    }

    @Test func byteOrderMarkIsSkippedAndTakesNoColumn() {
        #expect(parsedRoot("\u{FEFF}{\"a\": 1}")?["a"]?.numberValue?.intValue == 1)
        #expect(error("\u{FEFF}{\"a\" 1}") == "config.json:1:6: expected ':' after key \"a\", found '1'")
    }

    @Test func crlfLineBreaksCountOnce() {
        #expect(error("{\r\n\"a\": 1\r\n\"b\": 2}") == "config.json:3:1: expected ',' or '}' after object member, found '\"'; is a ',' missing at the end of line 2?")
    }

    @Test func repeatableKeyPrefixAllowsRepeatedCommentKeys() throws {
        let text = #"{"//": "one", "//": "two", "a": 1}"#
        let document = try JSONDocument.parse(text, path: "c.json", repeatableKeyPrefix: "//").get()
        #expect(document.root.objectMembers?.count == 3)
        #expect(throws: JSONSyntaxError.self) { try JSONDocument.parse(text, path: "c.json").get() }
    }

    // MARK: Errors with exact positions

    @Test func missingCommaBetweenMembers() {
        let text = """
        {
          "symbols": ["AAPL"]
          "color": true
        }
        """
        #expect(error(text) == "config.json:3:3: expected ',' or '}' after object member, found '\"'; is a ',' missing at the end of line 2?")
    }

    @Test func missingCommaOnTheSameLine() {
        #expect(error(#"{"a": 1 "b": 2}"#) == "config.json:1:9: expected ',' or '}' after object member, found '\"'")
        #expect(error("[1 2]") == "config.json:1:4: expected ',' or ']' after array element, found '2'")
    }

    @Test func trailingCommas() {
        let object = """
        {
          "a": 1,
        }
        """
        #expect(error(object) == "config.json:3:1: expected a key after ',', found '}'; JSON does not allow a trailing comma")
        #expect(error("[1, 2, ]") == "config.json:1:8: expected a value after ',', found ']'; JSON does not allow a trailing comma")
    }

    @Test func badLiterals() {
        #expect(error(#"{"color": tru}"#) == "config.json:1:11: expected a value for key \"color\" (an object, array, string, number, true, false or null), found 'tru'; text values need double quotes: \"tru\"")
        #expect(error("[True]") == "config.json:1:2: expected a value (an object, array, string, number, true, false or null), found 'True'; JSON literals are lower-case: true")
        #expect(error("[NaN]").hasSuffix("found 'NaN'; JSON has no NaN or Infinity"))
        #expect(error("[nulll]").contains("1:2: expected a value"))
    }

    @Test func unterminatedStringPointsAtItsOpeningQuote() {
        let text = """
        {
          "symbols": ["AAPL", "MSFT]
        }
        """
        #expect(error(text) == "config.json:2:23: unterminated string; expected a closing '\"' before the end of the line")
        #expect(error(#"{"a": "abc"#) == "config.json:1:7: unterminated string; expected a closing '\"' before the end of input")
    }

    @Test func misplacedQuoteIsHinted() {
        // "AAPL, " is a complete string, so the parser stumbles on MSFT right after its closing quote.
        #expect(error(#"["AAPL, "MSFT"]"#) == "config.json:1:10: expected ',' or ']' after array element, found 'MSFT'; is a '\"' missing or misplaced in the string before it?")
    }

    @Test func controlCharacterInString() {
        #expect(error("{\"a\": \"x\ty\"}") == "config.json:1:9: unescaped tab in string; write it as \\t")
        #expect(error("[\"\u{01}\"]") == "config.json:1:3: unescaped control character U+0001 in string; write it as \\u0001")
    }

    @Test func invalidEscapes() {
        #expect(error(#"["a\x"]"#) == #"config.json:1:4: invalid escape '\x' in string; use \" \\ \/ \b \f \n \r \t or \uXXXX"#)
        #expect(error(#"["\u12G4"]"#) == #"config.json:1:7: expected 4 hex digits after '\u', found 'G'"#)
        #expect(error(#"["\uD83D x"]"#) == #"config.json:1:3: unpaired UTF-16 surrogate '\uD83D' in string; a high surrogate must be followed by a low one (\uDC00-\uDFFF)"#)
        #expect(error(#"["\uDE00"]"#).hasPrefix(#"config.json:1:3: unpaired UTF-16 surrogate '\uDE00'"#))
    }

    @Test func malformedNumbers() {
        #expect(error("[01]") == "config.json:1:2: leading zeros are not allowed in numbers, found '01'")
        #expect(error("[1.]") == "config.json:1:4: expected a digit after '.', found ']'")
        #expect(error("[1e+]") == "config.json:1:5: expected a digit after the exponent, found ']'")
        #expect(error("[-x]") == "config.json:1:3: expected a digit after '-', found 'x'")
        #expect(error("[+1]") == "config.json:1:2: expected a value, found '+'")
        #expect(error("[1e999]") == "config.json:1:2: number 1e999 is out of range")
    }

    @Test func duplicateKeyNamesBothPlaces() {
        let text = """
        {
          "color": true,
          "color": false
        }
        """
        #expect(error(text) == "config.json:3:3: duplicate key \"color\" (first defined at 2:3); remove one of them")
    }

    @Test func trailingGarbage() {
        #expect(error("{}\n}") == "config.json:2:1: expected end of input after the top-level value, found '}'")
        #expect(error("{} x") == "config.json:1:4: expected end of input after the top-level value, found 'x'")
    }

    @Test func emptyAndCommentedInput() {
        #expect(error("") == "config.json:1:1: expected a value, found end of input")
        #expect(error("  \n ") == "config.json:2:2: expected a value, found end of input")
        #expect(error("{\"a\": // note\n1}") == "config.json:1:7: expected a value for key \"a\", found '/'; JSON has no comments: use a key starting with \"//\" instead")
        #expect(error("{'a': 1}") == "config.json:1:2: expected a key in double quotes, found '''; JSON keys need double quotes")
        #expect(error("{\"a\"}") == "config.json:1:5: expected ':' after key \"a\", found '}'")
    }

    @Test func nestingDepthIsLimited() {
        #expect(parsedRoot(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) != nil)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(error(tooDeep) == "config.json:1:65: arrays and objects are nested more than 64 levels deep")
        // Far deeper input fails the same way instead of overflowing the stack.
        #expect(error(String(repeating: "[", count: 100_000)).hasPrefix("config.json:1:65: arrays and objects"))
    }
}
