import Domain
import TextSafety

/// Why a request could not even be built. Caught before any network traffic.
public enum RequestConstructionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broker needs a credential that neither the environment nor the config provides.
    case missingCredential(broker: String, variable: String)
    case invalidSymbol(String)
    case emptySymbolList
    case badBaseURL(String)

    public var description: String {
        switch self {
        case .missingCredential(let broker, let variable): "\(broker): no credentials, set \(variable)"
        case .invalidSymbol(let symbol): "invalid symbol \(VisibleText.escaped(symbol))"
        case .emptySymbolList: "no symbols to ask for"
        case .badBaseURL(let url): "bad base URL \(VisibleText.escaped(url)); use http(s)://host[:port][/path]"
        }
    }

    /// The same failure in the cross-broker domain, for rows and the footer.
    public var brokerError: BrokerError {
        switch self {
        case .missingCredential(_, let variable): .unauthorized(hint: "set \(variable)")
        case .invalidSymbol(let symbol): .unknownSymbol(symbol)
        case .emptySymbolList: .badResponse("no symbols to ask for")
        case .badBaseURL: .network(description)
        }
    }
}
