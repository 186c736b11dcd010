import Foundation

/// Values of the common attribute types read and compared where their `Any`s hold them.
///
/// An `Any` holds a value of up to three words at the start of its buffer, its type in the word
/// after ``AnyOptionalLayout/typeWordOffset``; for these types that layout is checked once on real
/// values, and any other type goes the general way. Setting a property compares the slot's value
/// with the new one, so that setting a value it already has is not a change: casting both out of
/// their `Any`s takes two `swift_dynamicCast`s, most of the comparison's work. Reading a property
/// otherwise copies its slot's `Any?` out of the values and the value out of that through value
/// witnesses.
package enum InlineAttributes {
    /// Whether every type below was found held inline on this runtime.
    package static var verified: Bool { TypeWords.shared.verified }

    /// `lhs == rhs` when both are of one of the types below; `nil` for any other pair, which the
    /// caller compares the general way.
    package static func equal(_ lhs: Any, _ rhs: Any) -> Bool? {
        let words = TypeWords.shared
        guard words.verified, UnsafeRuntime.shortcutsEnabled else { return nil }
        // `as Any`: in Swift 6 an `Any` passed to a generic parameter is opened, and its value's
        // bytes, not the existential's, were handed over.
        return withUnsafeBytes(of: lhs as Any) { lhs in
            withUnsafeBytes(of: rhs as Any) { rhs -> Bool? in
                let type = lhs.load(fromByteOffset: AnyOptionalLayout.typeWordOffset, as: UInt.self)
                guard type == rhs.load(fromByteOffset: AnyOptionalLayout.typeWordOffset, as: UInt.self) else { return nil }
                switch type {
                case words.string: return same(String.self, lhs, rhs)
                case words.int: return same(Int.self, lhs, rhs)
                case words.double: return same(Double.self, lhs, rhs)
                case words.bool: return same(Bool.self, lhs, rhs)
                case words.uuid: return same(UUID.self, lhs, rhs)
                case words.date: return same(Date.self, lhs, rhs)
                case words.optionalString: return same(String?.self, lhs, rhs)
                case words.optionalInt: return same(Int?.self, lhs, rhs)
                case words.optionalDouble: return same(Double?.self, lhs, rhs)
                default: return nil
                }
            }
        }
    }

    /// Where slot `slot` of `values` holds a value of the type whose word is `word` (one of the
    /// types below, found held inline), for the caller to read it as that type at once; `nil` for
    /// any other slot. Not generic, so the array's bytes are reached through its specialized
    /// `withUnsafeBytes` (a generic read goes through the standard library's unspecialized one).
    /// The address is good only while `values`' owner neither changes nor
    /// frees them: the one caller reads through it in the next statement.
    package static func address(in values: [Any?], at slot: Int, holding word: UInt) -> UnsafeRawPointer? {
        let words = TypeWords.shared
        guard words.verified, UnsafeRuntime.shortcutsEnabled, words.isInline(word) else { return nil }
        return values.withUnsafeBytes { bytes -> UnsafeRawPointer? in
            let start = bytes.baseAddress! + slot * MemoryLayout<Any?>.stride
            return start.load(fromByteOffset: AnyOptionalLayout.typeWordOffset, as: UInt.self) == word ? start : nil
        }
    }

    private static func same<T: Equatable>(_: T.Type, _ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        lhs.baseAddress!.assumingMemoryBound(to: T.self).pointee == rhs.baseAddress!.assumingMemoryBound(to: T.self).pointee
    }

    /// The type words of the types compared in place, read once (a `static let` each would be a
    /// `swift_once` per comparison), and whether every one of them was found held inline.
    private struct TypeWords {
        static let shared = TypeWords()

        let string = AnyOptionalLayout.typeWord(of: String.self)
        let int = AnyOptionalLayout.typeWord(of: Int.self)
        let double = AnyOptionalLayout.typeWord(of: Double.self)
        let bool = AnyOptionalLayout.typeWord(of: Bool.self)
        let uuid = AnyOptionalLayout.typeWord(of: UUID.self)
        let date = AnyOptionalLayout.typeWord(of: Date.self)
        let optionalString = AnyOptionalLayout.typeWord(of: String?.self)
        let optionalInt = AnyOptionalLayout.typeWord(of: Int?.self)
        let optionalDouble = AnyOptionalLayout.typeWord(of: Double?.self)

        /// Whether `word` is one of these types'.
        func isInline(_ word: UInt) -> Bool {
            word == string || word == int || word == double || word == bool || word == uuid || word == date
                || word == optionalString || word == optionalInt || word == optionalDouble
        }

        let verified: Bool

        private init() {
            // A native string longer than fifteen bytes (a reference) and a small one (inline
            // bytes), `nil` and non-`nil` optionals.
            verified = Self.heldInline("a string longer than fifteen bytes") && Self.heldInline("Rome")
                && Self.heldInline(-42) && Self.heldInline(2.5) && Self.heldInline(true)
                && Self.heldInline(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)))
                && Self.heldInline(Date(timeIntervalSinceReferenceDate: 1.5))
                && Self.heldInline(String?.some("Oslo")) && Self.heldInline(String?.none)
                && Self.heldInline(Int?.some(7)) && Self.heldInline(Int?.none)
                && Self.heldInline(Double?.some(0.5)) && Self.heldInline(Double?.none)
        }

        /// Whether `sample`, held in an `Any`, is at the start of its buffer with its type's word.
        private static func heldInline<T: Equatable>(_ sample: T) -> Bool {
            let boxed: Any = sample
            return withUnsafeBytes(of: boxed as Any) { bytes in
                bytes.count == MemoryLayout<Any>.size
                    && bytes.load(fromByteOffset: AnyOptionalLayout.typeWordOffset, as: UInt.self) == AnyOptionalLayout.typeWord(of: T.self)
                    && bytes.baseAddress!.assumingMemoryBound(to: T.self).pointee == sample
            }
        }
    }
}
