import Domain

/// Reads one value of a lot row, or says what is wrong with it, where, and what to write instead.
struct LotValueReader {
    let file: String
    /// The end of the row, where a value of a column the file does not have would be.
    let end: TextPosition

    static let numberFix = "write a plain number: digits, an optional - and decimal point, no $ or thousands separators, e.g. 10 or -2.5"

    func date(_ field: CSVField?, today: TradeDate) -> Result<TradeDate, LotsFileError> {
        let text = LotsCSV.trimmed(field?.text ?? "")
        guard !text.isEmpty else {
            return failure(field, "date is missing", found: nil, fix: "write the day of the trade as YYYY-MM-DD, e.g. 2024-03-15")
        }
        guard let date = TradeDate(parsing: text) else {
            if TradeDate.isShapedLikeDate(text) {
                return failure(field, "no such day", found: text, fix: "check the month (01-12), the day of the month and the year (1000-9999)")
            }
            return failure(field, "date is not YYYY-MM-DD", found: text, fix: "write it as YYYY-MM-DD, e.g. 2024-03-15 for 15 March 2024")
        }
        guard date <= today else {
            return failure(field, "date is after today (\(today))", found: text, fix: "check the year: only lots already traded can be imported")
        }
        return .success(date)
    }

    func symbol(_ field: CSVField?) -> Result<String, LotsFileError> {
        let text = LotsCSV.trimmed(field?.text ?? "")
        let fix = "write the ticker: 1-15 letters, digits, . - / ^, e.g. AAPL or BRK.B"
        switch Symbol.normalize(text) {
        case .success(let symbol):
            return .success(symbol)
        case .failure(.empty):
            return failure(field, "symbol is missing", found: nil, fix: fix)
        case .failure(.tooLong):
            return failure(field, "symbol is longer than \(Symbol.maxLength) characters", found: text, fix: fix)
        case .failure(.invalidCharacter(_, let character)):
            let named = character == " " ? "a space" : "'\(character)'"
            return failure(field, "symbol contains \(named)", found: text, fix: fix)
        }
    }

    func quantity(_ field: CSVField?) -> Result<ExactDecimal, LotsFileError> {
        let text = LotsCSV.trimmed(field?.text ?? "")
        guard !text.isEmpty else {
            return failure(field, "quantity is missing", found: nil, fix: "write the shares: positive when bought, negative when sold, e.g. 10 or -5")
        }
        guard let quantity = number(text) else { return notANumber(field, "quantity", text) }
        guard !quantity.isZero else {
            return failure(field, "quantity is zero", found: text, fix: "a lot has shares: positive when bought, negative when sold; remove the row if it has none")
        }
        return .success(quantity)
    }

    func price(_ field: CSVField?) -> Result<ExactDecimal, LotsFileError> {
        let text = LotsCSV.trimmed(field?.text ?? "")
        guard !text.isEmpty else {
            return failure(field, "price is missing", found: nil, fix: "write the price of one share, e.g. 150.25")
        }
        guard let price = number(text) else { return notANumber(field, "price", text) }
        guard !price.isNegative else {
            return failure(field, "price is negative", found: text, fix: "write the price of one share without a sign; shares sold have a negative quantity instead")
        }
        return .success(price)
    }

    /// Empty, or no fees column at all, is 0.
    func fees(_ field: CSVField?) -> Result<ExactDecimal, LotsFileError> {
        let text = LotsCSV.trimmed(field?.text ?? "")
        guard !text.isEmpty else { return .success(0) }
        guard let fees = number(text) else { return notANumber(field, "fees", text) }
        guard !fees.isNegative else {
            return failure(field, "fees are negative", found: text, fix: "write what the trade cost you as a positive amount, or leave it empty")
        }
        return .success(fees)
    }

    /// Empty, or no broker column at all, is no label.
    func brokerLabel(_ field: CSVField?) -> Result<String?, LotsFileError> {
        let text = LotsCSV.trimmed(field?.text ?? "")
        guard !text.isEmpty else { return .success(nil) }
        if let problem = ManualLot.labelProblem(text) {
            return failure(field, "broker label \(problem)", found: text,
                           fix: "name where the shares are held in up to \(ManualLot.maximumLabelLength) printable characters, e.g. Fidelity IRA")
        }
        return .success(text)
    }

    /// Exactly, never through `Double`.
    private func number(_ text: String) -> ExactDecimal? {
        ExactDecimal(parsing: text)
    }

    private func notANumber<T>(_ field: CSVField?, _ name: String, _ text: String) -> Result<T, LotsFileError> {
        // Digits that read as a number but are too large say so, rather than "not a number".
        let digits = text.drop { $0 == "-" }
        if digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), digits.filter({ $0 == "." }).count <= 1,
           (digits.split(separator: ".", omittingEmptySubsequences: false).first?.count ?? 0) > 11 {
            return failure(field, "\(name) is beyond ±90000000000", found: text, fix: "check the number: no lot is that large")
        }
        return failure(field, "\(name) is not a plain number", found: text, fix: Self.numberFix)
    }

    private func failure<T>(_ field: CSVField?, _ problem: String, found: String?, fix: String) -> Result<T, LotsFileError> {
        .failure(LotsFileError(file: file, position: field?.position ?? end, problem: problem, found: found, fix: fix))
    }
}
