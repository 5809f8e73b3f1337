// FNV-1a, 64 bits: the small non-cryptographic hash behind scenario fingerprints and partial-result checksums.

/// FNV-1a over bytes (offset basis 0xcbf29ce484222325, prime 0x100000001b3). It catches
/// accidental change (an edited number, a damaged file) and is the same on every platform; it
/// is not a signature: anyone can recompute it after a deliberate edit.
package enum FNV1a {
    package static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325

    /// The hash of `bytes` following bytes already hashed to `hash` (the offset basis: none).
    package static func hash<Bytes: Sequence>(_ bytes: Bytes, continuing hash: UInt64 = offsetBasis) -> UInt64
        where Bytes.Element == UInt8 {
        var hash = hash
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The hash of 64-bit words, each as its 8 bytes in little-endian order (how an array of
    /// 64-bit integers is stored on every platform Swift on Linux runs on), following `hash`.
    package static func hash<Words: Sequence>(words: Words, continuing hash: UInt64 = offsetBasis) -> UInt64
        where Words.Element == UInt64 {
        var hash = hash
        for word in words {
            for k in 0..<8 {
                hash ^= (word >> (8 * UInt64(k))) & 0xFF
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        return hash
    }

    /// The hash as 16 lower-case hex digits.
    package static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let hex = String(hash(bytes), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
