/// How an `Any?` is laid out: an `Any` is three words of value buffer and a word holding the
/// value's type, and `nil` is the type word left zero (no type lives at address 0). Checked once
/// on real values rather than assumed, so that code reading slots in place falls back to copying
/// them out should a future runtime lay them out otherwise.
package enum AnyOptionalLayout {
    package static let typeWordOffset = MemoryLayout<Any>.size - MemoryLayout<UInt>.size

    /// Whether slots may be read by their type word: verified, and shortcuts enabled (``UnsafeRuntime``).
    package static var typeWordMarksNil: Bool { verifiedTypeWordMarksNil && UnsafeRuntime.shortcutsEnabled }

    /// Whether to-many arrays may be appended to in place: verified, and shortcuts enabled.
    package static var holdsArraysInline: Bool { verifiedHoldsArraysInline && UnsafeRuntime.shortcutsEnabled }

    /// Whether `nil` is the type word left zero, checked on real values.
    package static let verifiedTypeWordMarksNil: Bool = {
        let samples: [Any?] = [nil, 0, "", nil, Double.nan, [0], nil]
        guard MemoryLayout<Any?>.size == MemoryLayout<Any>.size else { return false }
        return samples.indices.allSatisfy { index in isNil(samples, at: index) == (samples[index] == nil) }
    }()

    /// Whether an array (one reference) held in an `Any?` is stored inline at its start, so that
    /// the slot's memory read as an `[AnyObject]?` is that array (``BackingStorage`` appends to a
    /// to-many in place). Checked on a real value, like ``verifiedTypeWordMarksNil``.
    package static let verifiedHoldsArraysInline: Bool = {
        guard verifiedTypeWordMarksNil else { return false }
        let array: [AnyObject] = [AnyOptionalSample()]
        let boxed: [Any?] = [array]
        return boxed.withUnsafeBytes { bytes in
            bytes.load(as: UInt.self) == unsafeBitCast(array, to: UInt.self)
                && bytes.load(fromByteOffset: typeWordOffset, as: UInt.self) == unsafeBitCast([AnyObject].self as Any.Type, to: UInt.self)
        }
    }()

    /// The type word of a value of `type` held in an `Any?`.
    package static func typeWord(of type: any Any.Type) -> UInt { unsafeBitCast(type, to: UInt.self) }

    /// Whether `values[index]` is `nil`, read by its type word in place; only once
    /// ``typeWordMarksNil`` holds.
    package static func isNil(_ values: [Any?], at index: Int) -> Bool {
        values.withUnsafeBytes { isNil(in: $0, at: index) }
    }

    /// Whether any of `values` is `nil`, read in place; only once ``typeWordMarksNil`` holds.
    package static func holdsNil(_ values: [Any?]) -> Bool {
        values.withUnsafeBytes { bytes in
            for index in 0..<values.count where isNil(in: bytes, at: index) { return true }
            return false
        }
    }

    private static func isNil(in bytes: UnsafeRawBufferPointer, at index: Int) -> Bool {
        bytes.load(fromByteOffset: index * MemoryLayout<Any?>.stride + typeWordOffset, as: UInt.self) == 0
    }
}

extension AnyOptionalLayout {
    /// Appends `element` to the `[AnyObject]?` that slot `slot` of `values` holds, where it holds
    /// it, when the slot's type word is `declared` (an array of a class, or an optional one):
    /// true when appended; false, with nothing done, for another type or a `nil`; `nil` when the
    /// array already holds `element`. Only once ``holdsArraysInline`` holds.
    package static func append(_ element: AnyObject, to values: inout [Any?], at slot: Int, holding declared: UInt) -> Bool? {
        let offset = slot * MemoryLayout<Any?>.stride
        // Checked through a read first: taking the values mutably copies them when a save's
        // committed values share the buffer, a copy wasted when the slot holds something else.
        let holdsDeclared = values.withUnsafeBytes {
            $0.load(fromByteOffset: offset + typeWordOffset, as: UInt.self) == declared
        }
        guard holdsDeclared else { return false }
        return values.withUnsafeMutableBytes { bytes in
            (bytes.baseAddress! + offset).withMemoryRebound(to: [AnyObject]?.self, capacity: 1) { array in
                // No copy of the array outlives a statement: the append finds it uniquely held.
                guard array.pointee != nil else { return false }
                if holds(array.pointee!, element) { return nil }
                array.pointee!.append(element)
                return true
            }
        }
    }

    /// Whether `array` holds `element` itself. A plain loop over the buffer: `contains(where:)`
    /// in this unspecialized code calls a closure through witnesses per element.
    private static func holds(_ array: [AnyObject], _ element: AnyObject) -> Bool {
        array.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                if buffer[index] === element { return true }
                index += 1
            }
            return false
        }
    }
}

private final class AnyOptionalSample {}
