import Domain

/// A money or quantity value written in a test as the broker writes it: `exactDecimal("131056.816")`.
/// Traps on text that is not a decimal, which is a mistake in the test itself.
func exactDecimal(_ text: String) -> ExactDecimal {
    guard let value = ExactDecimal(parsing: text) else { preconditionFailure("\(text) is not a decimal") }
    return value
}
