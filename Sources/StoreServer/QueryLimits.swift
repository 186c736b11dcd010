import Dispatch

/// Bounds the work one query can ask for, checked on the body's bytes before it is decoded
/// (decoding is the costly part of a huge query): at most `maxListLength` elements in any one
/// JSON array (an `IN` list's values), and at most `maxNodes` JSON objects in all (the filter's
/// expressions and values). A larger query gets 400 saying what to split.
struct QueryLimits: Sendable {
    let maxListLength: Int
    let maxNodes: Int
    /// Queries of more JSON objects than this are heavy (see ``HeavyQueryGate``).
    static let heavyNodes = 1_000

    /// Throws for a query over the limits; returns how many JSON objects it holds.
    @discardableResult
    func check(_ bytes: [UInt8]) throws -> Int {
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
        return nodes
    }
}

/// Lets one heavy query at a time (long lists, large filters) reach the store; the others wait
/// here, not in the store's queue. A store runs one call at a time, so a light query then waits
/// behind one heavy query at most, instead of behind every heavy query that arrived before it.
final class HeavyQueryGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 1)

    func pass<T>(heavy: Bool, _ body: () throws -> T) rethrows -> T {
        guard heavy else { return try body() }
        semaphore.wait()
        defer { semaphore.signal() }
        return try body()
    }
}
