/// A Tradier object that may be absent, JSON `null` or the string `"null"`: some endpoints send an empty
/// collection as `{"orders":"null"}`, others as `{"history":null}` (reference §1.3). All three decode as nil.
public struct TradierNullable<Wrapped: Decodable>: Decodable {
    public var value: Wrapped?

    public init(_ value: Wrapped?) {
        self.value = value
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() || (try? container.decode(String.self)) == "null" {
            value = nil
        } else {
            value = try container.decode(Wrapped.self)
        }
    }
}

extension TradierNullable: Sendable where Wrapped: Sendable {}
extension TradierNullable: Equatable where Wrapped: Equatable {}
