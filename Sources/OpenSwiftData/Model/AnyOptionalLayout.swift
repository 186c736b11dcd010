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

    /// Whether an array (one reference) held in an `Any?` is stored inline at its start, so that
    /// the slot's memory read as an `[AnyObject]?` is that array (``BackingStorage`` appends to a
    /// to-many in place). Checked on a real value, like ``typeWordMarksNil``.
    package static let holdsArraysInline: Bool = {
        guard typeWordMarksNil else { return false }
        let array: [AnyObject] = [AnyOptionalSample()]
        let boxed: [Any?] = [array]
        return boxed.withUnsafeBytes { bytes in
            bytes.load(as: UInt.self) == unsafeBitCast(array, to: UInt.self)
                && bytes.load(fromByteOffset: typeWordOffset, as: UInt.self) == unsafeBitCast([AnyObject].self as Any.Type, to: UInt.self)
        }
    }()

    /// The type word of a value of `type` held in an `Any?`.
    package static func typeWord(of type: any Any.Type) -> UInt { unsafeBitCast(type, to: UInt.self) }

    /// Whether the `Any?` at `index` of an array's bytes is `nil`, by its type word; only once
    /// ``typeWordMarksNil`` holds.
    package static func isNil(in bytes: UnsafeRawBufferPointer, at index: Int) -> Bool {
        bytes.load(fromByteOffset: index * MemoryLayout<Any?>.stride + typeWordOffset, as: UInt.self) == 0
    }
}

private final class AnyOptionalSample {}
