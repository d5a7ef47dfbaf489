/// Fuzzes `AlpacaStreamDecoder` with the shared stream-decoder checks (Support/StreamDecoderFuzzing.swift):
/// every Alpaca frame is a JSON array (reference §3.2), so every valid JSON array must decode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    StreamDecoderFuzzing.run(AlpacaStreamDecoder.self, data, size)
}

extension AlpacaStreamDecoder: FuzzedStreamDecoder {
    static func mustAccept(_ json: Any) -> Bool { json is [Any] }
}
