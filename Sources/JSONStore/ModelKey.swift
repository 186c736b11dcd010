/// The keys the JSON store gives inserted models: 15 characters drawn from 64, 90 random bits.
/// Fifteen UTF-8 bytes is the most a Swift string holds inline, so copying or hashing an
/// identifier never reaches the heap, where a UUID's 36 characters did on every lookup. A store
/// of a billion models has odds of about 1 in 2.5 billion of drawing one key twice, and the
/// save draws again when a key is taken.
enum ModelKey {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        return String(unsafeUninitializedCapacity: 15) { buffer in
            // Ten characters from 60 bits of one draw, five from 30 bits of the other.
            for index in 0..<10 {
                buffer[index] = alphabet[Int(high & 63)]
                high >>= 6
            }
            for index in 10..<15 {
                buffer[index] = alphabet[Int(low & 63)]
                low >>= 6
            }
            return 15
        }
    }

    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }
}
