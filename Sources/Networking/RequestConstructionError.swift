import Domain
import TextSafety

/// Why a request could not even be built. Caught before any network traffic.
public enum RequestConstructionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broker needs a credential that neither the environment nor the config provides.
    case missingCredential(broker: String, variable: String)
    case invalidSymbol(String)
    case emptySymbolList
    case badBaseURL(String)
    /// An order the broker's API cannot express as asked (a client order id too long for it, fractional
    /// shares where it takes whole ones); `reason` says which field and what the broker takes.
    case invalidOrder(reason: String)

    public var description: String {
        switch self {
        case .missingCredential(let broker, let variable): "\(broker): no credentials, set \(variable)"
        case .invalidSymbol(let symbol): "invalid symbol \(VisibleText.escaped(symbol))"
        case .emptySymbolList: "no symbols to ask for"
        case .badBaseURL(let url): "bad base URL \(VisibleText.escaped(url)); use http(s)://host[:port][/path]"
        case .invalidOrder(let reason): reason
        }
    }

    /// The same failure in the cross-broker domain, for rows and the footer.
    public var brokerError: BrokerError {
        switch self {
        case .missingCredential(_, let variable): .unauthorized(hint: "set \(variable)")
        case .invalidSymbol(let symbol): .unknownSymbol(symbol)
        case .emptySymbolList: .badResponse("no symbols to ask for")
        case .badBaseURL: .network(description)
        case .invalidOrder(let reason): .orderRejected(reason: reason)
        }
    }
}
