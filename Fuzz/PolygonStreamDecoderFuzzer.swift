/// Fuzzes `PolygonStreamDecoder` with the shared stream-decoder checks (Support/StreamDecoderFuzzing.swift):
/// every Polygon frame is a JSON array (reference §2.2), so every valid JSON array must decode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    StreamDecoderFuzzing.run(PolygonStreamDecoder.self, data, size)
}

extension PolygonStreamDecoder: FuzzedStreamDecoder {
    static func mustAccept(_ json: Any) -> Bool { json is [Any] }
}
