/// A desktop notification asked for by the app state (an alert fired); the runtime hands it to
/// `notify-send` when it is there and the config turns it on. Plain text: whoever shows it escapes it.
public struct DesktopNotification: Sendable, Hashable {
    public var title: String
    public var body: String

    public init(title: String, body: String) {
        self.title = title
        self.body = body
    }
}
