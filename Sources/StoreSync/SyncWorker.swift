import Foundation
import SwiftData

/// Runs the engine's rounds, one at a time: it owns the engine's state and the contexts it
/// opens on the local container, which never leave it.
actor SyncWorker {
    let container: ModelContainer
    let schema: SyncSchema
    let configuration: SyncConfiguration
    let transport: SyncTransport
    let state: SyncState
    let status: SyncStatus
    /// The client's identifier on the server (kept in the state), which tells its pushes from
    /// other writers'.
    let client: String
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// What a round that succeeded reports as its ``SyncStatus/lastError`` nonetheless.
    var warning: SyncError?

    init(container: ModelContainer, configuration: SyncConfiguration, status: SyncStatus) throws {
        self.container = container
        self.configuration = configuration
        self.status = status
        schema = try SyncSchema(models: configuration.models, schema: container.schema)
        transport = SyncTransport(server: configuration.server, token: configuration.token, timeout: configuration.requestTimeout,
                                  client: configuration.httpClient)
        state = try SyncState(url: try Self.stateURL(configuration.stateLocation, container: container))
        if let client = try state.value("client", as: String.self) {
            self.client = client
        } else {
            client = UUID().uuidString
            try state.set("client", client)
            try state.save()
        }
    }

    private static func stateURL(_ location: SyncConfiguration.StateLocation, container: ModelContainer) throws -> URL? {
        switch location {
        case .file(let url): return url
        case .inMemory: return nil
        case .besideStore:
            if let configuration = container.configurations.first(where: { !$0.isStoredInMemoryOnly }) {
                let url = configuration.url
                return url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".sync")
            }
            if !container.configurations.isEmpty { return nil }
            throw SyncError(.invalidConfiguration, "The container's store is not a ModelConfiguration, so the engine cannot tell where to keep its state; set SyncConfiguration.stateLocation to .file(url) (or .inMemory for a store in memory).")
        }
    }

    /// One round: what an earlier round (or process) left half done, then push, then pull.
    func round() async throws {
        await acquire()
        defer { release() }
        do {
            status.update { $0.phase = .pushing }
            try recoverPull()
            try await push()
            status.update { $0.phase = .pulling }
            try await pull()
            let count = try state.pendingCount()
            let reported = warning
            warning = nil
            status.update {
                $0.phase = .idle
                $0.pendingChanges = count
                $0.lastSuccessfulSync = Date()
                $0.lastError = reported
            }
        } catch {
            state.discard()
            let failure = Self.syncError(error)
            let count = (try? state.pendingCount()) ?? 0
            status.update {
                $0.phase = .idle
                $0.pendingChanges = count
                $0.lastError = failure as? SyncError
            }
            throw failure
        }
    }

    /// The local changes not pushed yet, read from the local history first.
    func pendingChanges() async throws -> Int {
        await acquire()
        defer { release() }
        try absorb()
        return try state.pendingCount()
    }

    /// Whether the local history has transactions of others than the engine that it has not
    /// read: saves it was not told of.
    func hasUnreadLocalChanges() throws -> Bool {
        let context = ModelContext(container)
        let author = configuration.author
        var descriptor: HistoryDescriptor<DefaultHistoryTransaction>
        if let token = try state.value("absorbed", as: DefaultHistoryToken.self) {
            descriptor = HistoryDescriptor(predicate: #Predicate { $0.token > token && $0.author != author })
        } else {
            descriptor = HistoryDescriptor(predicate: #Predicate { $0.author != author })
        }
        descriptor.fetchLimit = 1
        return try !context.fetchHistory(descriptor).isEmpty
    }

    static func syncError(_ error: any Error) -> any Error {
        switch error {
        case is SyncError, is CancellationError: error
        default: SyncError(.localStoreFailure, "The local store failed during sync (\(error)); nothing was lost, and the next round starts over.")
        }
    }

    private func acquire() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// A context on the local container that saves under the engine's author.
    func engineContext() -> ModelContext {
        let context = ModelContext(container)
        context.author = configuration.author
        return context
    }

    /// The newest transaction of the local history, nil while it has none.
    func latestLocalToken(_ context: ModelContext) throws -> DefaultHistoryToken? {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
            descriptor.fetchLimit = 1
            return try context.fetchHistory(descriptor).first?.token
        }
        return try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token
    }

    /// The local models of an entity among `identifiers` that still exist, by identifier.
    func models(of entity: SyncEntity, _ identifiers: some Collection<PersistentIdentifier>,
                in context: ModelContext) throws -> [PersistentIdentifier: any PersistentModel] {
        func fetch<M: PersistentModel>(_: M.Type) throws -> [any PersistentModel] {
            var found: [any PersistentModel] = []
            for chunk in Array(identifiers).chunked(500) {
                let wanted = Array(chunk)
                found += try context.fetch(FetchDescriptor<M>(predicate: #Predicate { wanted.contains($0.persistentModelID) }))
            }
            return found
        }
        guard !identifiers.isEmpty else { return [:] }
        return Dictionary(try fetch(entity.type).map { ($0.persistentModelID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The local models among `identifiers`, of whichever synced entity each is.
    func models(_ identifiers: some Collection<PersistentIdentifier>, in context: ModelContext) throws -> [PersistentIdentifier: any PersistentModel] {
        var found: [PersistentIdentifier: any PersistentModel] = [:]
        for (name, members) in Dictionary(grouping: identifiers, by: \.entityName) {
            guard let entity = schema[name] else { continue }
            found.merge(try models(of: entity, members, in: context)) { first, _ in first }
        }
        return found
    }

    /// Saves a context of the local container, as a ``SyncError`` when it fails.
    func save(_ context: ModelContext) throws {
        do {
            try context.save()
        } catch {
            throw SyncError(.localStoreFailure, "Saving the pulled changes in the local store failed (\(error)); the local store is unchanged and the next round pulls them again.")
        }
    }
}
