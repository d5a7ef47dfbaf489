import Foundation

/// The demo brokers the composition root installs in demo mode.
public enum DemoBrokers {
    /// Alpha, beta and gamma (the flaky one), in that order, sharing one market.
    public static func make(
        settings: DemoBrokerSettings = DemoBrokerSettings(),
        clock: any Clock<Duration> = ContinuousClock(), now: @escaping @Sendable () -> Date = Date.init
    ) -> [DemoBroker] {
        DemoBrokerProfile.all.map { DemoBroker(profile: $0, settings: settings, clock: clock, now: now) }
    }
}
