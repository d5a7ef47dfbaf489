import Locking

/// A connection's messages on their way from its I/O thread to its reader (the broker's stream session),
/// in order, then an end: clean (`finish()`) or a failure (`finish(throwing:)`), thrown after the messages
/// before it.
///
/// Every message of every streaming broker passes here. A `OneReaderStream` rather than an
/// `AsyncThrowingStream`, whose generic code looked up metadata on every `yield` and `next` (a sampled
/// profile at 1,000 events a second found the two among the app's largest costs); the session takes each
/// wake-up's messages with `nextBatch`, for one lock. Unbounded: the I/O thread reads no faster than the
/// paced slots and the socket allow, and the session keeps up.
public typealias WebSocketMessages = OneReaderStream<WebSocketMessage>
