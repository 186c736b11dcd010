import Foundation
import OpenSwiftData

/// A `DataStore` that keeps its models in one JSON file: the seeds' archival store, made safe.
///
/// ```swift
/// let configuration = JSONStoreConfiguration(name: "Trips", url: URL(filePath: "trips.json"))
/// let container = try ModelContainer(for: Trip.self, configurations: configuration)
/// ```
///
/// - The file is read once; fetches filter, sort and page the snapshots in memory without building
///   models, and see another process's saves (the file's inode, size and modification time are
///   checked before each call).
/// - A save rewrites the file crash-safely (temporary file, `fsync`, `rename`, directory `fsync`)
///   under an `flock` on `.<file>.lock`, after reloading the file if another process changed it.
///   A failed save leaves the file and the store as they were.
/// - Inserted models get identifiers of this store with a random 15-character key (90 bits, held
///   inline by Swift strings, where the seeds' UUIDs take 36); a key in use is never drawn again,
///   and a deleted model's key comes back with odds of about 1 in 10^27 per insert. Identifiers
///   already in a file (UUID keys, the seeds', and the temporary ones the blog's store archives)
///   keep working.
/// - Uniqueness constraints (`@Attribute(.unique)`, `#Unique`) make an insert update the model
///   it equals, as the default store does.
///
/// Opening reads the whole file and every save rewrites it, so it suits data sets of up to about
/// 10,000–20,000 models (a few megabytes); for larger ones, use the SQLite default store.
/// Benchmarks/README.md ("What size JSONStore suits") has the measurements.
public final class JSONStore: DataStore, DataStoreBatching, DataStoreRemapping, @unchecked Sendable {
    /// The configuration this store is opened with.
    public typealias Configuration = JSONStoreConfiguration
    /// The snapshots this store reads and writes.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: JSONStoreConfiguration
    /// The models the store holds.
    public let schema: Schema
    /// The file's name, as the seeds use: the store identifier of the identifiers it mints.
    public let identifier: String

    let coder: ArchiveCoder
    let fileLock: FileLock
    /// Guards everything below; calls from several threads are serialised.
    let lock = NSLock()
    var archive = SnapshotArchive()
    /// The version of the file `archive` holds; nil when there was no file.
    var stamp: FileStamp?
    /// Why the file on disk could not be read; while set, every call throws it and nothing is saved.
    var readFailure: JSONStoreError?
    /// The record a store opened with a plan writes with its first save when its file has none.
    var pendingRecord: StoredSchema?
    /// The receipts of saves made with an idempotency key (``ReceiptLog``).
    var receipts = ReceiptState()

    var url: URL { configuration.url }

    /// Opens the file (an absent file is an empty store), after removing the temporary files a
    /// killed writer may have left.
    ///
    /// - Throws: ``JSONStoreError`` with code ``JSONStoreError/Code/unreadableFile`` naming the
    ///   position of the problem when the file is not a JSON array of this schema's snapshots.
    ///
    /// A `migrationPlan` runs on the file before it is read (see `migrate(_:)`), and the store
    /// then keeps a `StoredSchema` in it.
    public convenience init(_ configuration: JSONStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)? = nil) throws {
        try self.init(configuration, identifier: configuration.url.lastPathComponent, migrationPlan: migrationPlan)
    }

    /// `identifier`: a migration's working copy serves the identifiers of the file it replaces.
    init(_ configuration: JSONStoreConfiguration, identifier: String, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        try configuration.validate()
        self.configuration = configuration
        schema = configuration.schema ?? Schema()
        self.identifier = identifier
        coder = ArchiveCoder(configuration: configuration)
        do {
            fileLock = try FileLock(for: configuration.url)
        } catch {
            throw JSONStoreError(.ioFailure, "The JSON store cannot create its lock file next to \(configuration.url.path): \(error). Make sure the directory exists and is writable.", url: configuration.url, underlying: error)
        }
        try lock.withLock {
            try exclusively("open") {
                DurableFile.removeOrphans(of: configuration.url)
                DurableFile.removeOrphans(of: receiptsURL)
                pendingRecord = try migrate(migrationPlan)
                archive.record = pendingRecord
                archive.history = configuration.keepsHistory ? HistoryBook() : nil
                try reloadIfChanged()
            }
        }
    }

    /// The snapshots matching the request's descriptor, filtered, sorted and paged in memory.
    public func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> where T: PersistentModel {
        DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: try matching(request.descriptor))
    }

    /// The number of models matching the request's descriptor.
    public func fetchCount<T>(_ request: DataStoreFetchRequest<T>) throws -> Int where T: PersistentModel {
        try matching(request.descriptor).count
    }

    /// The identifiers of the models matching the request's descriptor, in its order.
    public func fetchIdentifiers<T>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier] where T: PersistentModel {
        try matching(request.descriptor).map(\.persistentIdentifier)
    }

    /// The entity's snapshots matching the descriptor, in file order unless sorted; what the query
    /// engine cannot evaluate goes back to the context as `preferInMemoryFilter`/`preferInMemorySort`.
    func matching<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [DefaultSnapshot] {
        try lock.withLock {
            let query = try DataStoreQuery(descriptor, translator: translator(for: T.self))
            try reloadIfChanged()
            return try evaluate(query, in: archive)
        }
    }

    func evaluate(_ query: DataStoreQuery, in archive: SnapshotArchive) throws -> [DefaultSnapshot] {
        let engine = SnapshotQueryEngine(related: { archive[$0] }, entitySnapshots: { archive.snapshots(ofEntity: $0) })
        return try engine.run(query, over: archive.snapshots(ofEntity: query.entityName))
    }

    func translator(for type: any PersistentModel.Type) -> QueryTranslator {
        ModelQueryResolution.translator(for: type)
    }

    /// Reads the file again when it is not the version held (another process saved, or it was
    /// edited). Call with `lock` held.
    func reloadIfChanged() throws {
        let current: FileStamp?
        do {
            current = try FileStamp.current(atPath: url.path)
        } catch {
            throw JSONStoreError(.ioFailure, "The JSON store cannot check \(url.path): \(error).", url: url, underlying: error)
        }
        if current == stamp, readFailure == nil { return }
        if current == stamp, let readFailure { throw readFailure }
        do {
            guard let file = try StoreFileReader.read(url, load) else {
                archive = SnapshotArchive()
                archive.record = pendingRecord
                archive.history = configuration.keepsHistory ? HistoryBook() : nil
                stamp = nil
                readFailure = nil
                return
            }
            stamp = file.stamp
            archive = file.value
            readFailure = nil
        } catch let error as JSONStoreError where error.code == .unreadableFile {
            // Proven damage stays until the file changes; an I/O error is tried again next call.
            stamp = current
            readFailure = error
            throw error
        }
    }

    private func load(_ bytes: Data) throws -> SnapshotArchive {
        let snapshots = try coder.decode(bytes)
        let known = Set(schema.entities.map(\.name))
        if let index = snapshots.firstIndex(where: { !known.contains($0.snapshot.persistentIdentifier.entityName) }) {
            throw JSONStoreError.WrongEntity(index: index, entityName: snapshots[index].snapshot.persistentIdentifier.entityName,
                                             expected: known.sorted())
        }
        var archive = try SnapshotArchive(snapshots)
        archive.record = try coder.record(in: bytes) ?? pendingRecord
        archive.history = try coder.history(in: bytes) ?? (configuration.keepsHistory ? HistoryBook() : nil)
        return archive
    }

    /// Runs `body` holding the file lock.
    func exclusively<T>(_ action: String, _ body: () throws -> T) throws -> T {
        do {
            return try fileLock.withExclusiveLock(body)
        } catch let error as POSIXFailure {
            throw JSONStoreError(.ioFailure, "The JSON store cannot lock \(fileLock.url.path) to \(action): \(error).", url: url, underlying: error)
        }
    }
}
