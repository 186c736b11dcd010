import OpenSwiftData

/// What `JSONStoreCrashWriter` saves until it is killed; JSONStoreTests opens the same file, so
/// both processes need this one declaration.
@Model public final class CrashRecord {
    public var run: Int
    public var sequence: Int
    public var payload: String

    public init(run: Int, sequence: Int, payload: String) {
        self.run = run
        self.sequence = sequence
        self.payload = payload
    }
}

/// What `SQLiteCrashChild` saves in batches of five until it is killed; the SQLite crash and
/// cross-process tests open the same file, so both processes need this one declaration.
@Model public final class CrashBatch {
    public var batch: Int
    public var item: Int
    public var payload: String

    public init(batch: Int, item: Int, payload: String) {
        self.batch = batch
        self.item = item
        self.payload = payload
    }
}
