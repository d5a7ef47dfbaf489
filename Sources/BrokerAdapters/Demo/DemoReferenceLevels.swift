/// Where well-known tickers and indexes trade, roughly, in late 2026: the demo starts them near these
/// levels so it looks like a market (MSFT in the hundreds, not at 4.75). Other symbols get a level from
/// a hash. Plausible round numbers, not data.
enum DemoReferenceLevels {
    static let levels: [String: Double] = [
        // Mega caps and household names.
        "AAPL": 265, "MSFT": 520, "NVDA": 190, "GOOGL": 290, "GOOG": 292, "AMZN": 235, "META": 720,
        "TSLA": 430, "BRK.B": 500, "AVGO": 360, "ORCL": 260, "NFLX": 115, "AMD": 240, "INTC": 38,
        "CSCO": 72, "IBM": 300, "QCOM": 170, "CRM": 250, "ADBE": 350, "PLTR": 180, "UBER": 95,
        // Banks, payments, health, energy, consumer.
        "JPM": 310, "BAC": 52, "WFC": 85, "GS": 800, "V": 350, "MA": 580, "UNH": 340, "JNJ": 190,
        "PFE": 25, "LLY": 900, "XOM": 115, "CVX": 155, "WMT": 105, "COST": 950, "HD": 390, "PG": 155,
        "KO": 70, "PEP": 150, "DIS": 115, "NKE": 65, "MCD": 300, "T": 27, "VZ": 41, "F": 12, "GM": 70,
        // Funds and indexes.
        "SPY": 680, "QQQ": 620, "DIA": 470, "IWM": 245,
        "^GSPC": 6_800, "^SPX": 6_800, "^DJI": 47_000, "^IXIC": 23_000, "^NDX": 25_000, "^RUT": 2_450, "^VIX": 17,
    ]
}
