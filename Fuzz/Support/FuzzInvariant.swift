/// Stops the fuzzer with a message when an invariant breaks. `precondition` would do, but in `-O`
/// builds it traps without its message, and the message is what makes a crash artifact readable.
func fuzzInvariant(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    guard !condition else { return }
    fatalError("fuzz invariant broken: \(message())", file: file, line: line)
}

/// The bytes libFuzzer hands over, without copying them: a harness that reads past the end is then
/// caught by AddressSanitizer, since libFuzzer allocates exactly `size` bytes for each input.
func fuzzInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: data, count: size)
}
