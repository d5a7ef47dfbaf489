/// A broker's stream decoder: one WebSocket text frame's UTF-8 bytes to the events in it, appended to an
/// array that a session reuses from frame to frame (an array per frame was an allocation and a free per
/// message). Each `<Broker>StreamDecoder` provides the byte-level entry point; the ways in from a
/// `String` and into a new array, for tests, the fuzzers and the benchmark, are the same for every
/// broker and live here.
public protocol StreamFrameDecoder {
    associatedtype Event

    /// Appends the frame's events to `events`. On a throw the events appended before it stay: the caller
    /// decides whether a broken frame keeps any (the stream session drops them all).
    static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>, into events: inout [Event]) throws(StreamJSONScanner.Failure)
}

extension StreamFrameDecoder {
    /// The frame's events in a new array.
    public static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(StreamJSONScanner.Failure) -> [Event] {
        var events: [Event] = []
        try decode(utf8: bytes, into: &events)
        return events
    }

    /// Appends the events of a frame received as text; `withUTF8` reads a native string's bytes in place.
    /// (Untyped throws: a typed-throws closure capturing `events` inout crashed the Swift 6.3 compiler.)
    public static func decode(_ text: String, into events: inout [Event]) throws {
        var text = text
        try text.withUTF8 { bytes in try decode(utf8: bytes, into: &events) }
    }

    /// The events of a frame received as text, in a new array.
    public static func decode(_ text: String) throws -> [Event] {
        var events: [Event] = []
        try decode(text, into: &events)
        return events
    }
}
