import Locking

/// A session's events on their way to the hub, in order, then an end: clean (`finish()`) or a failure
/// (`finish(throwing:)`), thrown after the events before it.
///
/// The hottest path of the app: every quote of every streaming broker goes through one. A
/// `OneReaderStream` rather than an `AsyncThrowingStream`, whose generic code looks up metadata on every
/// `yield` and `next`; the hub takes each wake-up's events with `nextBatch`, for one lock.
public typealias QuoteEvents = OneReaderStream<QuoteEvent>
