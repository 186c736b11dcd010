/// How an `Any?` is laid out: an `Any` is three words of value buffer and a word holding the
/// value's type, and `nil` is the type word left zero (no type lives at address 0). Checked once
/// on real values rather than assumed, so that code reading slots in place falls back to copying
/// them out should a future runtime lay them out otherwise.
package enum AnyOptionalLayout {
    package static let typeWordOffset = MemoryLayout<Any>.size - MemoryLayout<UInt>.size

    package static let typeWordMarksNil: Bool = {
        let samples: [Any?] = [nil, 0, "", nil, Double.nan, [0], nil]
        guard MemoryLayout<Any?>.size == MemoryLayout<Any>.size else { return false }
        return samples.withUnsafeBytes { bytes in
            samples.indices.allSatisfy { index in isNil(in: bytes, at: index) == (samples[index] == nil) }
        }
    }()

    /// Whether the `Any?` at `index` of an array's bytes is `nil`, by its type word; only once
    /// ``typeWordMarksNil`` holds.
    package static func isNil(in bytes: UnsafeRawBufferPointer, at index: Int) -> Bool {
        bytes.load(fromByteOffset: index * MemoryLayout<Any?>.stride + typeWordOffset, as: UInt.self) == 0
    }
}
