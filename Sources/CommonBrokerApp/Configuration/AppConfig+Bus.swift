import Bus
import Foundation
import Networking

extension AppConfig {
    /// `bus`: share one connection per broker with every terminal over NATS JetStream (README, "A shared
    /// connection"). No `bus` section means no bus: each process connects to its brokers itself.
    ///
    ///     "bus": {"url": "nats://127.0.0.1:4222", "bucket": "commonbroker", "role": "auto"}
    ///
    /// `url` is one server or a list (a cluster's nodes); `user` / `password` or `token` authenticate,
    /// written here or, better, in `COMMONBROKER_BUS_USER`, `COMMONBROKER_BUS_PASSWORD`,
    /// `COMMONBROKER_BUS_TOKEN`.
    public struct Bus: Sendable, Equatable {
        public var urls: [String]
        public var bucket: String
        public var role: BusRole
        public var replicas: Int
        public var leaseSeconds: Int
        public var user: Credential
        public var password: Credential
        public var token: Credential

        public init(
            urls: [String], bucket: String = "commonbroker", role: BusRole = .auto, replicas: Int = 1, leaseSeconds: Int = 6
        ) {
            self.urls = urls
            self.bucket = bucket
            self.role = role
            self.replicas = replicas
            self.leaseSeconds = leaseSeconds
            user = Credential(key: "user", environmentVariable: "COMMONBROKER_BUS_USER")
            password = Credential(key: "password", environmentVariable: "COMMONBROKER_BUS_PASSWORD")
            token = Credential(key: "token", environmentVariable: "COMMONBROKER_BUS_TOKEN")
        }

        static let validKeys = ["url", "bucket", "role", "replicas", "leaseSeconds", "user", "password", "token"]
        public static let replicasRange = 1...5
        public static let leaseSecondsRange = 2...300

        init(from value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) {
            let object = try reader.object(value, at: keyPath, validKeys: Self.validKeys)
            guard let url = object["url"] else {
                throw reader.invalid(value, at: keyPath, "has no \"url\"; write the NATS server, e.g. \"nats://127.0.0.1:4222\", or remove the bus section")
            }
            var urls: [String] = []
            if let items = url.arrayValue {
                for (index, item) in items.enumerated() {
                    urls.append(try Self.serverURL(item, at: object.path("url") + "[\(index)]", reader: reader))
                }
                if urls.isEmpty { throw reader.invalid(url, at: object.path("url"), "is an empty list; name at least one NATS server") }
            } else {
                urls = [try Self.serverURL(url, at: object.path("url"), reader: reader)]
            }
            self.init(urls: urls)
            if let value = object["bucket"] {
                bucket = try reader.string(value, at: object.path("bucket"))
                if let problem = NATSKeyValue.bucketNameProblem(bucket) {
                    throw reader.invalid(value, at: object.path("bucket"), "\(problem); use letters, digits, '-' and '_'")
                }
            }
            if let value = object["role"] { role = try reader.choice(value, at: object.path("role"), of: BusRole.self) }
            if let value = object["replicas"] { replicas = try reader.integer(value, at: object.path("replicas"), in: Self.replicasRange) }
            if let value = object["leaseSeconds"] {
                leaseSeconds = try reader.integer(value, at: object.path("leaseSeconds"), in: Self.leaseSecondsRange)
            }
            for key in ["user", "password", "token"] {
                guard let value = object[key], !value.isNull else { continue }
                let secret = try reader.string(value, at: object.path(key))
                guard !secret.isEmpty else { throw reader.invalid(value, at: object.path(key), "is empty; write it, or remove it to read \(key) from the environment") }
                switch key {
                case "user": user.value = secret
                case "password": password.value = secret
                default: token.value = secret
                }
            }
        }

        private static func serverURL(_ value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) -> String {
            let text = try reader.string(value, at: keyPath)
            let lower = text.lowercased()
            guard lower.hasPrefix("nats://") || lower.hasPrefix("tls://"), text.count > 7, !text.contains(where: \.isWhitespace) else {
                throw reader.invalid(value, at: keyPath, "is not a NATS server URL; write nats://host:port or tls://host:port")
            }
            return text
        }

        /// The settings the bus module runs with, the secrets resolved from `environment` first.
        public func settings(environment: [String: String]) -> BusSettings {
            let credentials: NATSCredentials?
            if let token = token.resolved(in: environment) {
                credentials = .token(token)
            } else if let user = user.resolved(in: environment), let password = password.resolved(in: environment) {
                credentials = .userPassword(user: user, password: password)
            } else {
                credentials = nil
            }
            let seconds = Int64(leaseSeconds)
            return BusSettings(
                servers: urls, bucket: bucket, role: role, credentials: credentials, replicas: replicas,
                lease: LeasePolicy(timeToLive: .seconds(seconds), renewEvery: .seconds(seconds) / 3, standDownAfterFailure: .seconds(seconds * 2)),
                demandHeartbeat: .seconds(seconds) / 3)
        }
    }
}
