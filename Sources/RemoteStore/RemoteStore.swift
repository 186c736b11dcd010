import Foundation
import OpenSwiftData
import StoreWire
import Synchronization

/// A store whose models live on a `StoreServer` (the `openswiftdata-server` executable, or any app
/// hosting one), reached over HTTP/JSON.
///
/// ```swift
/// let container = try ModelContainer(for: Trip.self, configurations:
///     RemoteStoreConfiguration(url: URL(string: "http://127.0.0.1:8080")!, token: token))
/// let context = ModelContext(container)
/// let paris = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Paris" }))
/// ```
///
/// - Fetches, counts and identifier fetches send the translated query (filter, sorts, limit,
///   offset), and the server runs it in its store; what cannot be translated is filtered and
///   sorted by the context, as with every store.
/// - A save is one transaction on the server. It carries an idempotency key, and a save whose
///   answer was lost (dropped connection, timeout, 503) is sent again with the same key: the
///   server applies it once and answers the retry with the first result. When every attempt's
///   answer is lost, the save fails with `.outcomeUnknown` (it may have been applied), and saving
///   the same changes again reuses the key.
/// - Errors are ``RemoteStoreError``s with the server's message; after a failed save the context's
///   changes are still pending.
/// - The calls are synchronous, like the whole `DataStore` API. Over `http://` the calling thread
///   sends the request and reads the answer itself; over `https://` it waits while
///   async-http-client runs on its own thread. Neither can deadlock whatever thread or task calls.
///   Each attempt is bounded by the configuration's `timeout`.
public final class RemoteStore: DataStore, DataStoreBatching, QueryableDataStore, DataStoreRemapping, @unchecked Sendable {
    /// The configuration this store is opened with.
    public typealias Configuration = RemoteStoreConfiguration
    /// The snapshots this store sends and receives.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with: the server's URL, token and timeouts.
    public let configuration: RemoteStoreConfiguration
    /// The models the store holds, as this process's model types describe them.
    public let schema: Schema
    /// The store's identifier: the configuration's name.
    public var identifier: String { configuration.name }

    let transport: HTTPTransport
    /// The server's `history/events` stream, open while anything listens (`HistoryAnnouncing`).
    let historyListener: HistoryEventListener
    /// Whether the server's schema was found to agree with ``schema``; checked before the first request.
    let schemaAgreement = SchemaAgreement()
    /// The last save whose answer was lost, and its key: the same changes saved again reuse it.
    let unansweredSave = Mutex<(fingerprint: String, key: String)?>(nil)

    /// Creates a store that talks to the configuration's server; nothing is sent until the first
    /// request, and the migration plan is the server's business, not used here.
    public init(_ configuration: RemoteStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)? = nil) throws {
        try configuration.validate()
        self.configuration = configuration
        schema = configuration.schema ?? Schema()
        transport = HTTPTransport(configuration)
        historyListener = HistoryEventListener(configuration)
    }

    // MARK: DataStore

    /// Sends the request's query to the server and returns the snapshots it finds.
    public func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> where T: PersistentModel {
        DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: try fetchSnapshots(try query(request.descriptor)))
    }

    /// Asks the server how many models match the request's query.
    public func fetchCount<T>(_ request: DataStoreFetchRequest<T>) throws -> Int where T: PersistentModel {
        try fetchCount(try query(request.descriptor, sorted: false))
    }

    /// Asks the server for the identifiers of the models matching the request's query.
    public func fetchIdentifiers<T>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier] where T: PersistentModel {
        try fetchIdentifiers(try query(request.descriptor))
    }

    /// Sends the request's changes to the server as one transaction, retrying a lost answer with the
    /// same idempotency key.
    public func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        let response = try send(request)
        return DataStoreSaveChangesResult(for: response.storeIdentifier, remappedIdentifiers: remap(of: response),
                                          historyToken: response.historyToken)
    }

    /// Asks the server to delete every model matching the request's predicate.
    public func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel {
        try deleteModels(matching: try query(FetchDescriptor<T>(predicate: request.predicate), sorted: false), editingState: request.editingState)
    }

    /// Deletes every model of every entity of the schema on the server, one entity at a time.
    public func erase() throws {
        for entity in schema.entities {
            try deleteModels(matching: DataStoreQuery(entityName: entity.name))
        }
    }

    // MARK: QueryableDataStore

    /// Sends a store-neutral query to the server and returns the snapshots it finds.
    public func fetchSnapshots(_ query: DataStoreQuery) throws -> [DefaultSnapshot] {
        try call(StoreAPI.fetch, body: try body(of: query), as: FetchResponse.self).snapshots
    }

    /// Asks the server how many models match a store-neutral query.
    public func fetchCount(_ query: DataStoreQuery) throws -> Int {
        try call(StoreAPI.count, body: try body(of: query), as: CountResponse.self).count
    }

    /// Asks the server for the identifiers of the models matching a store-neutral query.
    public func fetchIdentifiers(_ query: DataStoreQuery) throws -> [PersistentIdentifier] {
        try call(StoreAPI.identifiers, body: try body(of: query), as: IdentifiersResponse.self).identifiers
    }

    /// Asks the server to delete every model matching a store-neutral query.
    public func deleteModels(matching query: DataStoreQuery) throws {
        try deleteModels(matching: query, editingState: EditingState())
    }

    /// Asks the server to delete every model matching a store-neutral query, its history naming
    /// the context's author.
    public func deleteModels(matching query: DataStoreQuery, editingState: EditingState) throws {
        let filter = DataStoreQuery(entityName: query.entityName, filter: query.filter)
        _ = try exchange(StoreAPI.batchDelete, body: try body(of: filter, author: editingState.author), headers: [])
    }

    // MARK: Wire

    /// Sends one save, retried under one idempotency key.
    func send(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> SaveResponse {
        let message = SaveRequest(inserted: request.inserted, updated: request.updated, deleted: request.deleted,
                                  author: request.editingState.author)
        let body = try encode(message)
        // One key per logical save: every retry of this call sends the same one, and so does the
        // next save of the same changes after an answer was lost (compared as the server does).
        let key = try unansweredSave.withLock { pending in
            guard let pending, pending.fingerprint == (try WireCoding.fingerprint(of: message)) else { return UUID().uuidString }
            return pending.key
        }
        do {
            let response = try call(StoreAPI.save, body: body, headers: [(StoreAPI.idempotencyKeyHeader, key)], as: SaveResponse.self)
            unansweredSave.withLock { $0 = nil }
            return response
        } catch let error as RemoteStoreError where error.code == .outcomeUnknown {
            let fingerprint = try WireCoding.fingerprint(of: message)
            unansweredSave.withLock { $0 = (fingerprint, key) }
            throw RemoteStoreError(.outcomeUnknown, error.message + " The changes are still pending; saving them again unchanged sends the same idempotency key (\(key)), so the server applies them at most once.", underlying: error)
        }
    }

    func remap(of response: SaveResponse) -> [PersistentIdentifier: PersistentIdentifier] {
        Dictionary(response.remapped.map { ($0.temporary, $0.permanent) }, uniquingKeysWith: { first, _ in first })
    }

    /// The descriptor as a query, or `preferInMemory…` for what the translator refuses.
    func query<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, sorted: Bool = true) throws -> DataStoreQuery {
        var query = try DataStoreQuery(descriptor)
        if !sorted { query.sortBy = [] }
        return query
    }

    /// The body of a query request, written by hand (``QueryRequest/json()``) as the encoder would.
    func body(of query: DataStoreQuery, author: String? = nil) throws -> Data {
        do {
            return try QueryRequest(query: query, author: author).json()
        } catch {
            throw PersistenceError(.invalidSnapshot, "A query for the server cannot be encoded as JSON (\(error)).", underlying: error)
        }
    }

    func encode<T: Encodable>(_ value: T) throws -> Data {
        do {
            return try WireCoding.encoder().encode(value)
        } catch {
            throw PersistenceError(.invalidSnapshot, "A request to the server cannot be encoded as JSON (\(error)); persisted properties must be Codable.", underlying: error)
        }
    }

    private func call<T: Decodable>(_ path: String, body: Data, headers: [(String, String)] = [], as type: T.Type) throws -> T {
        let reply = try exchange(path, body: body, headers: headers)
        do {
            return try WireCoding.decoder().decodeChecked(T.self, from: reply.body)
        } catch {
            throw RemoteStoreError(.invalidResponse, "The server's answer to \(path) cannot be read (\(error)); are client and server built from the same models and versions?", status: reply.status, underlying: error)
        }
    }

    /// Sends the request and turns an error answer into the error it stands for.
    func exchange(_ path: String, body: Data, headers: [(String, String)]) throws -> HTTPTransport.Reply {
        try schemaAgreement.ensure { try checkServerSchema(before: path) }
        return try answer(to: path, reply: try transport.send(path, body: body, headers: headers))
    }

    /// The reply, or the error an error answer stands for.
    func answer(to path: String, reply: HTTPTransport.Reply) throws -> HTTPTransport.Reply {
        guard !(200..<300).contains(reply.status) else { return reply }
        let detail = try? WireCoding.decoder().decodeChecked(ErrorResponse.self, from: reply.body).error
        switch detail?.code {
        case WireErrorCode.preferInMemoryFilter?: throw DataStoreError.preferInMemoryFilter
        case WireErrorCode.preferInMemorySort?: throw DataStoreError.preferInMemorySort
        case WireErrorCode.historyTokenExpired?: throw SwiftDataError.historyTokenExpired
        case PersistenceError.Code.foreignHistoryToken.rawValue?:
            throw PersistenceError(.foreignHistoryToken, detail?.message ?? "The server refused a history token of another store.")
        default: break
        }
        let message = detail?.message ?? String(decoding: reply.body.prefix(500), as: UTF8.self)
        let code: RemoteStoreError.Code = switch reply.status {
        case 401: .unauthorized
        case 403: .forbidden
        case 404: .notFound
        case 409: .conflict
        case 413: .payloadTooLarge
        case 400, 422: .invalidRequest
        case 408, 503, 504: .timedOut
        default: reply.status >= 500 ? .serverError : .invalidRequest
        }
        throw RemoteStoreError(code, "The server refused \(path): \(message)", status: reply.status, serverCode: detail?.code)
    }
}
