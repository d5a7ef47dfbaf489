import Foundation

/// Replaces secrets with `<redacted>` before anything leaves the process: recordings, logs, errors.
///
/// Names are matched case-insensitively for headers (HTTP says so) and, deliberately, for query items
/// too: a server may treat `Token` and `token` alike, and over-redacting costs nothing.
public enum Redaction {
    public static let placeholder = "<redacted>"

    /// `url` as text with the value of every secret query item (and any password in the authority)
    /// replaced. The rest is kept byte for byte, so the result still identifies the endpoint.
    public static func urlString(_ url: URL, secretNames: Set<String>) -> String {
        redactingQuery(in: redactingPassword(in: url.absoluteString), secretNames: secretNames)
    }

    /// `headers` with the value of every header named in `secretNames` replaced.
    public static func headers(_ headers: [String: String], secretNames: Set<String>) -> [String: String] {
        let names = lowercased(secretNames)
        var redacted = headers
        for name in headers.keys where names.contains(name.lowercased()) {
            redacted[name] = placeholder
        }
        return redacted
    }

    /// Query items as (name, value) pairs, percent-decoded, secret values replaced. Order is kept.
    public static func queryItems(of url: URL, secretNames: Set<String>) -> [(name: String, value: String)] {
        let names = lowercased(secretNames)
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return items.map { item in
            (item.name, names.contains(item.name.lowercased()) ? placeholder : (item.value ?? ""))
        }
    }

    /// Free text (an error message, a log line, a response body) with secrets removed: every occurrence
    /// of a known secret value, then `name=value` and `Name: value` forms of the secret names, which
    /// catch secrets whose value we were never told (a server echoing another key, say).
    public static func text(_ text: String, secretNames: Set<String> = [], secretValues: some Sequence<String> = [String]()) -> String {
        var result = text
        // Longest first, so "Bearer abc" goes before "abc" and no fragment of a longer secret survives.
        for value in secretValues.filter({ !$0.isEmpty }).sorted(by: { $0.count > $1.count }) {
            result = result.replacingOccurrences(of: value, with: placeholder)
        }
        result = redactingQuery(in: result, secretNames: secretNames)
        for name in secretNames where !name.isEmpty {
            result = replacingHeaderLines(named: name, in: result)
        }
        return result
    }

    /// Every occurrence of every secret value in `data` replaced, byte for byte: works for bodies that
    /// are not text, too.
    public static func data(_ data: Data, secretValues: some Sequence<String>) -> Data {
        var result = data
        let placeholderBytes = Data(placeholder.utf8)
        for value in secretValues.filter({ !$0.isEmpty }).sorted(by: { $0.utf8.count > $1.utf8.count }) {
            let needle = Data(value.utf8)
            var searchStart = result.startIndex
            while let found = result.range(of: needle, in: searchStart..<result.endIndex) {
                result.replaceSubrange(found, with: placeholderBytes)
                searchStart = found.lowerBound + placeholderBytes.count
            }
        }
        return result
    }

    /// The secret values a request actually carries: secret headers (whole, and the credential after an
    /// auth scheme such as `Bearer`; for `Basic`, the decoded `user:password` and the password) and
    /// secret query items. What to scan responses for, since a server may echo them.
    public static func secretValues(in request: HTTPRequest, secretNames: Set<String>) -> [String] {
        let names = lowercased(secretNames)
        var values: [String] = []
        for field in request.headerFields where names.contains(field.name.lowercased()) {
            values.append(field.value)
            values.append(contentsOf: credentialParts(ofHeaderValue: field.value))
        }
        if let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) {
            // Decoded and as sent (still percent-encoded): a server may echo either.
            let items = (components.queryItems ?? []) + (components.percentEncodedQueryItems ?? [])
            for item in items where names.contains((item.name.removingPercentEncoding ?? item.name).lowercased()) {
                if let value = item.value { values.append(value) }
            }
            if let password = components.password {
                values.append(password)
            }
        }
        var seen = Set<String>()
        return values.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && seen.insert($0).inserted }
    }

    // MARK: - Private

    private static func lowercased(_ names: Set<String>) -> Set<String> {
        Set(names.map { $0.lowercased() })
    }

    private static func credentialParts(ofHeaderValue value: String) -> [String] {
        let parts = value.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return [] }
        let credential = parts[1].trimmingCharacters(in: .whitespaces)
        var result = [credential]
        if parts[0].lowercased() == "basic",
           let decoded = Data(base64Encoded: credential).flatMap({ String(data: $0, encoding: .utf8) }) {
            result.append(decoded)
            if let colon = decoded.firstIndex(of: ":") { result.append(String(decoded[decoded.index(after: colon)...])) }
        }
        return result
    }

    /// `name=value` pairs inside query strings (or any text that uses the same form): the value runs to
    /// the next `&`, `#`, whitespace or quote.
    private static func redactingQuery(in text: String, secretNames: Set<String>) -> String {
        guard !secretNames.isEmpty else { return text }
        let names = lowercased(secretNames)
        var result = ""
        var rest = Substring(text)
        let stops: Set<Character> = ["&", "#", " ", "\t", "\n", "\r", "\"", "'", "<", ">"]
        let starts: Set<Character> = ["?", "&", " ", "\t", "\n", "\"", "'", "(", "["]
        while let equals = rest.firstIndex(of: "=") {
            // The name is what precedes `=` back to a separator.
            var nameStart = equals
            while nameStart > rest.startIndex, !starts.contains(rest[rest.index(before: nameStart)]) {
                nameStart = rest.index(before: nameStart)
            }
            let name = rest[nameStart..<equals]
            let decodedName = (name.removingPercentEncoding ?? String(name)).lowercased()
            let valueStart = rest.index(after: equals)
            let valueEnd = rest[valueStart...].firstIndex(where: { stops.contains($0) }) ?? rest.endIndex
            result += rest[..<valueStart]
            if names.contains(decodedName), valueStart < valueEnd, rest[valueStart..<valueEnd] != Substring(placeholder) {
                result += placeholder
            } else {
                result += rest[valueStart..<valueEnd]
            }
            rest = rest[valueEnd...]
        }
        return result + rest
    }

    private static func redactingPassword(in urlText: String) -> String {
        guard let schemeEnd = urlText.range(of: "://") else { return urlText }
        let authorityEnd = urlText[schemeEnd.upperBound...].firstIndex(where: { "/?#".contains($0) }) ?? urlText.endIndex
        let authority = urlText[schemeEnd.upperBound..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return urlText }
        return String(urlText[..<authority.index(after: colon)]) + placeholder + String(urlText[at...])
    }

    /// Lines such as `Authorization: Bearer abc` (a header dump in a log) for a secret name.
    private static func replacingHeaderLines(named name: String, in text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let prefix = name.lowercased() + ":"
        return lines.map { line -> String in
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            guard trimmed.lowercased().hasPrefix(prefix) else { return String(line) }
            let indent = line[..<trimmed.startIndex]
            let nameEnd = trimmed.index(trimmed.startIndex, offsetBy: prefix.count)
            return indent + trimmed[..<nameEnd] + " " + placeholder
        }.joined(separator: "\n")
    }
}
