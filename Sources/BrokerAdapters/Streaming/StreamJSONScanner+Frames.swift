extension StreamJSONScanner {
    /// Appends the events of a frame that is exactly one JSON array (Polygon, Alpaca) to `events`: each
    /// element goes through `element`, which returns nil for what the watchlist cannot use; text after the
    /// array is malformed. On a throw the events appended before it stay; the caller drops them.
    @inline(__always)
    static func events<Event>(
        inArrayFrame bytes: UnsafeBufferPointer<UInt8>, into events: inout [Event],
        _ element: (inout StreamJSONScanner) throws(Failure) -> Event?
    ) throws(Failure) {
        var scanner = StreamJSONScanner(bytes)
        try scanner.array { (scanner: inout StreamJSONScanner) throws(Failure) in
            if let event = try element(&scanner) { events.append(event) }
        }
        guard scanner.isAtEnd else { throw Failure(offset: scanner.index, reason: "text after the frame's array") }
    }
}
