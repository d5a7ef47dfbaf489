import Foundation

/// One request and its response as a recording file holds them, secrets already redacted. The file is
/// meant to be read and edited by people, so the body is text whenever it is valid UTF-8.
public struct RecordedExchange: Codable, Sendable, Hashable {
    public struct Request: Codable, Sendable, Hashable {
        public var method: String
        /// Redacted: secret query values read `<redacted>`.
        public var url: String
        public var headers: [String: String]
        /// The names that were redacted, so a replay redacts the same names before comparing.
        public var secretNames: [String]
    }

    public struct Response: Codable, Sendable, Hashable {
        public var status: Int
        public var headers: [String: String]
        public var body: String
        /// "utf8" or "base64".
        public var bodyEncoding: String
    }

    public var request: Request
    public var response: Response

    /// The recording of `request` answered by `response`, with every secret name and every secret value
    /// actually sent replaced, wherever it appears (a server may echo a key back in an error).
    public init(request: HTTPRequest, secretNames: Set<String>, response: HTTPResponse) {
        let secretValues = Redaction.secretValues(in: request, secretNames: secretNames)
        let url = Redaction.urlString(request.url, secretNames: secretNames)
        let requestHeaders = Redaction.headers(request.headerFields.dictionary, secretNames: secretNames)
        self.request = Request(
            method: request.method,
            url: Redaction.text(url, secretValues: secretValues),
            headers: requestHeaders.mapValues { Redaction.text($0, secretValues: secretValues) },
            secretNames: secretNames.sorted()
        )
        let responseHeaders = Redaction.headers(response.headers, secretNames: secretNames)
            .mapValues { Redaction.text($0, secretNames: secretNames, secretValues: secretValues) }
        let body = Redaction.data(response.body, secretValues: secretValues)
        if let text = String(data: body, encoding: .utf8) {
            self.response = Response(status: response.status, headers: responseHeaders, body: text, bodyEncoding: "utf8")
        } else {
            self.response = Response(status: response.status, headers: responseHeaders, body: body.base64EncodedString(), bodyEncoding: "base64")
        }
    }

    /// The response as the servicer returns it. Nil when the body cannot be decoded.
    public var httpResponse: HTTPResponse? {
        let body: Data?
        switch response.bodyEncoding {
        case "utf8": body = Data(response.body.utf8)
        case "base64": body = Data(base64Encoded: response.body)
        default: body = nil
        }
        return body.map { HTTPResponse(status: response.status, headers: response.headers, body: $0) }
    }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }
}
