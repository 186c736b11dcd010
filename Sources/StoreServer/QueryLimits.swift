/// Bounds the work one query can ask for, checked on the body's bytes before it is decoded
/// (decoding is the costly part of a huge query): at most `maxListLength` elements in any one
/// JSON array (an `IN` list's values), and at most `maxNodes` JSON objects in all (the filter's
/// expressions and values). A larger query gets 400 saying what to split.
struct QueryLimits: Sendable {
    let maxListLength: Int
    let maxNodes: Int

    func check(_ bytes: [UInt8]) throws {
        var nodes = 0
        // Per open array, the commas between its elements so far; per open object, nil.
        var open: [Int?] = []
        try JSONBody.forEachStructuralByte(in: bytes) { byte in
            switch byte {
            case UInt8(ascii: "{"):
                nodes += 1
                if nodes > maxNodes {
                    throw StoreServerError(.invalidRequest, "The query holds more than \(maxNodes) expressions and values; split it into several queries, or filter on fewer values.")
                }
                open.append(nil)
            case UInt8(ascii: "["):
                open.append(0)
            case UInt8(ascii: ","):
                guard let last = open.last, let commas = last else { return }
                open[open.count - 1] = commas + 1
                if commas + 2 > maxListLength {
                    throw StoreServerError(.invalidRequest, "A list in the query holds more than \(maxListLength) values; split the query into several, each with a shorter list.")
                }
            default:
                _ = open.popLast()
            }
        }
    }
}
