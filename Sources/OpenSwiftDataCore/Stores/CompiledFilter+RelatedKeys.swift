extension CompiledFilter {
    /// The models of a destination entity that passed a `contains(where:)` test, in one object so
    /// that matching a row retains one reference.
    final class RelatedKeys {
        let scope: IdentifierScope?
        let entityName: String
        private let passing: Set<PrimaryKey>
        /// The passing keys as bits, when they are all small non-negative integers (the in-memory
        /// and SQLite stores' keys): testing a key is then an index and a mask, not a hash.
        private let bits: [UInt64]?

        init(scope: IdentifierScope?, entityName: String, passing: Set<PrimaryKey>) {
            self.scope = scope
            self.entityName = entityName
            self.passing = passing
            bits = Self.bits(of: passing)
        }

        func contains(_ key: PrimaryKey) -> Bool {
            guard let bits else { return passing.contains(key) }
            // Every passing key is an integer, so a string key never passes.
            guard case .integer(let integer) = key, integer >= 0, integer < Int64(bits.count) * 64 else { return false }
            return bits[Int(integer >> 6)] & (1 << UInt64(integer & 63)) != 0
        }

        /// One bit per key up to the largest, when that costs at most a word per passing key
        /// (or 64 words); nil when a key is a string or negative.
        private static func bits(of keys: Set<PrimaryKey>) -> [UInt64]? {
            var largest: Int64 = -1
            for key in keys {
                guard case .integer(let integer) = key, integer >= 0 else { return nil }
                largest = max(largest, integer)
            }
            let words = Int(largest / 64) + 1
            guard words <= max(64, keys.count) else { return nil }
            var bits = [UInt64](repeating: 0, count: words)
            for case .integer(let integer) in keys { bits[Int(integer >> 6)] |= 1 << UInt64(integer & 63) }
            return bits
        }
    }
}
