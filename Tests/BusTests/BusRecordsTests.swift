@testable import Bus
import Testing

@Suite("BusRecords: the JSON of the lease, state and demand keys")
struct BusRecordsTests {
    static func text(_ value: some Encodable) -> String {
        String(decoding: BusRecords.encode(value), as: UTF8.self)
    }

    @Test("each record is written with sorted keys, and read back to itself")
    func exactJSON() throws {
        let lease = BusLease(holder: "host:42", instance: "k3x", pinned: true)
        #expect(Self.text(lease) == #"{"holder":"host:42","instance":"k3x","pinned":true}"#)
        #expect(try BusRecords.decode(BusLease.self, from: BusRecords.encode(lease), what: "the lease").get() == lease)

        let state = BusBrokerState(condition: .retrying, reason: "refused \"key\"", leader: "host:42")
        #expect(Self.text(state) == #"{"condition":"retrying","leader":"host:42","reason":"refused \"key\""}"#)
        #expect(try BusRecords.decode(BusBrokerState.self, from: BusRecords.encode(state), what: "the state").get() == state)

        let demand = BusDemand(symbols: ["MSFT", "BRK.B", "AAPL"])
        #expect(demand.symbols == ["AAPL", "BRK.B", "MSFT"])
        #expect(Self.text(demand) == #"{"symbols":["AAPL","BRK.B","MSFT"]}"#)
        #expect(try BusRecords.decode(BusDemand.self, from: BusRecords.encode(demand), what: "a demand").get() == demand)
    }

    @Test("anything not of the expected shape is refused as a whole, saying what and how long", arguments: [
        "", "{", "null", "[]", #"{"holder":"h","instance":"i"}"#, #"{"holder":"h","instance":"i","pinned":"yes"}"#,
        #"{"holder":1,"instance":"i","pinned":false}"#,
    ])
    func refusesLease(_ json: String) {
        let result = BusRecords.decode(BusLease.self, from: Array(json.utf8), what: "the lease of alpaca")
        #expect(result == .failure(BusWireError(
            "the lease of alpaca on the bus is not valid JSON of the expected shape (\(json.utf8.count) bytes)")))
    }

    @Test("a state with an unknown condition is refused")
    func refusesUnknownCondition() {
        let json = #"{"condition":"sleeping","leader":"h","reason":""}"#
        #expect(throws: BusWireError.self) {
            try BusRecords.decode(BusBrokerState.self, from: Array(json.utf8), what: "the state").get()
        }
    }
}
