extension AppConfig {
    /// Stands in for a secret that a replaying run does not have. Long enough to be scrubbed from any
    /// error text like a real secret.
    static let replayPlaceholderCredential = "replay-needs-no-credentials"

    /// `environment` for a run that answers from recordings (`--replay`): every enabled broker's credential
    /// that is set neither in its variable nor in the config file gets a placeholder, so the brokers build
    /// their requests as with real keys. The placeholder never leaves the process: the replaying servicer
    /// sends nothing, and matches requests with their secrets redacted, as they were recorded. Credentials
    /// that are set stay as they are.
    func environmentForReplay(_ environment: [String: String]) -> [String: String] {
        var replay = environment
        for section in brokers.enabled {
            for credential in section.credentials where credential.resolved(in: environment)?.isEmpty ?? true {
                replay[credential.environmentVariable] = Self.replayPlaceholderCredential
            }
        }
        return replay
    }
}
