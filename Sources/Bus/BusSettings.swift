import Foundation
import Networking

/// What the config's `bus` section says, resolved: where NATS is, the bucket, this process's role and
/// name on the bus, and the timing of leases and demand.
public struct BusSettings: Sendable {
    /// `nats://host:port` or `tls://host:port`, one per cluster node the config names; the client also
    /// follows the nodes the cluster announces.
    public var servers: [String]
    public var bucket: String
    public var role: BusRole
    /// From `COMMONBROKER_BUS_TOKEN` / `_USER` + `_PASSWORD` or the config; never shown.
    public var credentials: NATSCredentials?
    /// JetStream replicas of the bucket (3 on a three-node cluster).
    public var replicas: Int
    public var lease: LeasePolicy
    /// How often each process rewrites its demand; the leader drops a demand not rewritten for three.
    public var demandHeartbeat: Duration
    /// How long the first connection may take before the app runs without the bus.
    public var connectTimeout: Duration
    /// `host:pid`, as the footer shows the leader.
    public var holder: String
    /// Unique per run.
    public var instance: String
    public var extraCAFile: String?
    /// Told each lease decision and role change, one line each: the relay logs them; the interactive
    /// app only with `COMMONBROKER_BUS_TRACE` set (its standard error is the screen).
    public var trace: (@Sendable (String) -> Void)?

    public init(
        servers: [String], bucket: String = "commonbroker", role: BusRole = .auto, credentials: NATSCredentials? = nil,
        replicas: Int = 1, lease: LeasePolicy = LeasePolicy(), demandHeartbeat: Duration = .seconds(2),
        connectTimeout: Duration = .seconds(2), holder: String = BusSettings.defaultHolder(),
        instance: String = BusSettings.newInstance(), extraCAFile: String? = nil
    ) {
        self.servers = servers
        self.bucket = bucket
        self.role = role
        self.credentials = credentials
        self.replicas = replicas
        self.lease = lease
        self.demandHeartbeat = demandHeartbeat
        self.connectTimeout = connectTimeout
        self.holder = holder
        self.instance = instance
        self.extraCAFile = extraCAFile
    }

    public var demandTimeToLive: Duration { demandHeartbeat * 3 }

    public static func defaultHolder() -> String {
        "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
    }

    public static func newInstance() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }
}
