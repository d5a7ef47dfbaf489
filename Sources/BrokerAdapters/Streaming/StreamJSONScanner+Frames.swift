extension StreamJSONScanner {
    /// The events of a frame that is exactly one JSON array (Polygon, Alpaca): each element goes through
    /// `element`, which returns nil for what the watchlist cannot use; text after the array is malformed.
    @inline(__always)
    static func events<Event>(
        inArrayFrame bytes: UnsafeBufferPointer<UInt8>,
        _ element: (inout StreamJSONScanner) throws(Failure) -> Event?
    ) throws(Failure) -> [Event] {
        var scanner = StreamJSONScanner(bytes)
        var events: [Event] = []
        try scanner.array { (scanner: inout StreamJSONScanner) throws(Failure) in
            if let event = try element(&scanner) { events.append(event) }
        }
        guard scanner.isAtEnd else { throw Failure(offset: scanner.index, reason: "text after the frame's array") }
        return events
    }
}
