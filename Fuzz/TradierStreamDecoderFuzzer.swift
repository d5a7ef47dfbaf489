/// Fuzzes `TradierStreamDecoder` with the shared stream-decoder checks (Support/StreamDecoderFuzzing.swift):
/// the decoder throws only on bytes that are not JSON, so every strictly valid JSON value must decode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    StreamDecoderFuzzing.run(TradierStreamDecoder.self, data, size)
}

extension TradierStreamDecoder: FuzzedStreamDecoder {
    static func mustAccept(_ json: Any) -> Bool { true }
}
