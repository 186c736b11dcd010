extension SampleRowStore {
    /// How often each entry point of a store was called: a testing aid, shared with the code that
    /// made the store's configuration, to prove which way contexts reach the store.
    public final class Counts: @unchecked Sendable {
        /// Calls of `fetch(_:)`, the snapshot path.
        public var fetches = 0
        /// Calls of `fetchRows(_:editingState:)`.
        public var rowFetches = 0
        /// Calls of `save(_:)`, the snapshot path.
        public var saves = 0
        /// Calls of `saveRows(_:)`.
        public var rowSaves = 0
        /// Reads of a to-many relationship left for later, one per relationship and fetch.
        public var toManyLoads = 0
        /// Calls of `delete(_:)`, the batch delete of `DataStoreBatching`.
        public var batchDeletes = 0
        /// Fetches whose filter or sort the store sent back to the context.
        public var sentBack = 0

        /// Counts at zero.
        public init() {}
    }

    /// A bug the store shows on purpose: a testing aid, to see a context's answer to it.
    public enum Fault: Sendable {
        /// Every fetched row is one value short.
        case shortRows
        /// A row save answers no identifier for its last insert.
        case missingIdentifier
        /// A save stores references to models inserted with it under their temporary
        /// identifiers, though the store adopts `DataStoreRemapping`.
        case keepsTemporaryReferences
    }
}
