/// A random-access collection whose elements are loaded batch by batch as they are accessed.
public struct FetchResultsCollection<Element>: RandomAccessCollection {
    /// Positions are offsets from zero.
    public typealias Index = Int
    /// The collection's valid positions.
    public typealias Indices = Range<Int>
    /// Iterates the models in order, loading batches as it reaches them.
    public typealias Iterator = IndexingIterator<FetchResultsCollection<Element>>
    /// A slice of the results, sharing the loaded batches.
    public typealias SubSequence = Slice<FetchResultsCollection<Element>>

    /// Loads batches on demand and keeps them; a class so that copies of the collection share it.
    final class BatchLoader {
        let count: Int
        let batchSize: Int
        let load: (Range<Int>) throws -> [Element]
        var batches: [Int: [Element]] = [:]

        init(count: Int, batchSize: Int, load: @escaping (Range<Int>) throws -> [Element]) {
            self.count = count
            self.batchSize = Swift.max(1, batchSize)
            self.load = load
        }

        func element(at position: Int) -> Element {
            let batch = position / batchSize
            if batches[batch] == nil {
                let range = (batch * batchSize)..<Swift.min(count, (batch + 1) * batchSize)
                do {
                    batches[batch] = try load(range)
                } catch {
                    preconditionFailure("FetchResultsCollection could not load elements \(range): \(error)")
                }
            }
            return batches[batch]![position - batch * batchSize]
        }
    }

    let loader: BatchLoader

    init(count: Int, batchSize: Int, load: @escaping (Range<Int>) throws -> [Element]) throws {
        loader = BatchLoader(count: count, batchSize: batchSize, load: load)
        // The first batch loads now, so that a store that fails at all fails inside the throwing fetch.
        if count > 0 { loader.batches[0] = try load(0..<Swift.min(count, loader.batchSize)) }
    }

    /// The first position: zero.
    public var startIndex: Int { 0 }
    /// One past the last position: the number of matching models.
    public var endIndex: Int { loader.count }
    /// The model at this position, loading its batch first if needed.
    public subscript(position: Int) -> Element { loader.element(at: position) }
}
