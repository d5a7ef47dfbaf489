/// Process-independent hashing for the demo market.
///
/// Swift's `Hasher` (and so `hashValue`) is seeded randomly per process, which would give every run
/// different prices; FNV-1a and SplitMix64 are fixed functions, so a seed means the same market on
/// every machine and in every process.
enum DemoHash {
    /// 64-bit FNV-1a over the UTF-8 bytes.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The SplitMix64 finalizer: a bijection that spreads every input bit over the output.
    static func splitMix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// Folds `value` into `hash`; order matters, so (a, b) and (b, a) hash differently.
    static func mix(_ hash: UInt64, _ value: UInt64) -> UInt64 {
        splitMix(hash ^ splitMix(value))
    }

    static func mix(_ hash: UInt64, _ value: Int) -> UInt64 {
        mix(hash, UInt64(bitPattern: Int64(value)))
    }

    static func mix(_ hash: UInt64, _ label: String) -> UInt64 {
        mix(hash, fnv1a(label))
    }

    /// Uniform in [0, 1), from the top 53 bits.
    static func unit(_ hash: UInt64) -> Double {
        Double(hash >> 11) * 0x1.0p-53
    }

    /// Uniform in [-1, 1).
    static func signedUnit(_ hash: UInt64) -> Double {
        unit(hash) * 2 - 1
    }
}
