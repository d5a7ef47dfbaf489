import Foundation

extension AppConfig {
    /// How `wss://` streams verify servers. Verification always uses the system's CA store; `caFile` adds
    /// to it (a corporate proxy, a broker sandbox). Turning verification off is possible only here, by name,
    /// and the header says so on every frame while it is off.
    public struct TLS: Sendable, Equatable {
        /// A PEM file of extra trusted CA certificates.
        public var caFile: String?
        /// Skips certificate and hostname checks. Anyone on the network path can then read and change the
        /// stream, credentials included.
        public var insecureSkipVerify: Bool

        public init(caFile: String? = nil, insecureSkipVerify: Bool = false) {
            self.caFile = caFile
            self.insecureSkipVerify = insecureSkipVerify
        }

        static let validKeys = ["caFile", "insecureSkipVerify"]

        init(from value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) {
            let object = try reader.object(value, at: keyPath, validKeys: Self.validKeys)
            self.init()
            if let value = object["caFile"], !value.isNull {
                let path = (try reader.string(value, at: object.path("caFile")) as NSString).expandingTildeInPath
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                      FileManager.default.isReadableFile(atPath: path)
                else {
                    throw reader.invalid(value, at: object.path("caFile"), "names no readable file (\(path)); give the path of a PEM file of CA certificates, or null")
                }
                caFile = path
            }
            if let value = object["insecureSkipVerify"] {
                insecureSkipVerify = try reader.bool(value, at: object.path("insecureSkipVerify"))
            }
        }
    }
}
