import Foundation
import SwiftData

/// A local model's unpushed changes, as ``SyncState`` hands them out.
struct PendingChange: Equatable {
    var local: PersistentIdentifier
    var entity: String
    var sequence: Int
    var revision: Int
    var inserted: Bool
    var deleted: Bool
    var properties: Set<String>
    var server: ServerModel?

    var isEmpty: Bool { !inserted && !deleted && properties.isEmpty }
}

/// The engine's durable state, in a store of its own beside the local one (SwiftData models, so
/// the same code runs on Apple's SwiftData): the identity map, the unpushed changes, tokens.
/// Used by the engine's worker alone.
final class SyncState {
    let container: ModelContainer
    private(set) var context: ModelContext
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
    private let decoder = JSONDecoder()
    let baselineEncoder: JSONEncoder = {
        let encoder = SyncCoding.encoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
    private var texts: [PersistentIdentifier: String] = [:]
    private var identifiers: [String: PersistentIdentifier] = [:]

    /// Opens (or creates) the state at `url`, or in memory.
    init(url: URL?) throws {
        let schema = Schema([SyncIdentityRecord.self, SyncPendingRecord.self, SyncSettingRecord.self])
        let configuration = url.map { ModelConfiguration("StoreSyncState", schema: schema, url: $0) }
            ?? ModelConfiguration("StoreSyncState", schema: schema, isStoredInMemoryOnly: true)
        do {
            container = try ModelContainer(for: schema, configurations: [configuration])
        } catch {
            throw SyncError(.localStoreFailure, "The sync state at \(url?.path ?? "memory") could not be opened (\(error)); check that its directory is writable.")
        }
        context = ModelContext(container)
    }

    // MARK: Local identifiers as text

    func text(_ identifier: PersistentIdentifier) throws -> String {
        if let text = texts[identifier] { return text }
        let text = String(decoding: try encoder.encode(identifier), as: UTF8.self)
        remember(identifier, text)
        return text
    }

    func identifier(_ text: String) throws -> PersistentIdentifier {
        if let identifier = identifiers[text] { return identifier }
        let identifier = try decoder.decode(PersistentIdentifier.self, from: Data(text.utf8))
        remember(identifier, text)
        return identifier
    }

    private func remember(_ identifier: PersistentIdentifier, _ text: String) {
        if texts.count > 200_000 {
            texts.removeAll(keepingCapacity: true)
            identifiers.removeAll(keepingCapacity: true)
        }
        texts[identifier] = text
        identifiers[text] = identifier
    }

    // MARK: Settings

    func value<T: Decodable>(_ name: String, as _: T.Type) throws -> T? {
        guard let record = try setting(name) else { return nil }
        return try decoder.decode(T.self, from: record.value)
    }

    func has(_ name: String) throws -> Bool {
        try setting(name) != nil
    }

    /// Sets a value, or removes it (nil).
    func set(_ name: String, _ value: (some Encodable)?) throws {
        let existing = try setting(name)
        guard let value else {
            if let existing { context.delete(existing) }
            return
        }
        let data = try encoder.encode(value)
        if let existing {
            existing.value = data
        } else {
            context.insert(SyncSettingRecord(name: name, value: data))
        }
    }

    private func setting(_ name: String) throws -> SyncSettingRecord? {
        var descriptor = FetchDescriptor<SyncSettingRecord>(predicate: #Predicate { $0.name == name })
        descriptor.fetchLimit = 1
        return try context.fetch(descriptor).first
    }

    // MARK: Identity map

    /// The local models of those server models that have one.
    func locals(of servers: some Collection<ServerModel>) throws -> [ServerModel: PersistentIdentifier] {
        var found: [ServerModel: PersistentIdentifier] = [:]
        for chunk in Array(Set(servers)).chunked(500) {
            let texts = chunk.map(\.text)
            for record in try context.fetch(FetchDescriptor<SyncIdentityRecord>(predicate: #Predicate { texts.contains($0.server) })) {
                if let server = ServerModel(text: record.server) { found[server] = try identifier(record.local) }
            }
        }
        return found
    }

    /// The server models of those local models that have one.
    func servers(of locals: some Collection<PersistentIdentifier>) throws -> [PersistentIdentifier: ServerModel] {
        var found: [PersistentIdentifier: ServerModel] = [:]
        for chunk in Array(Set(locals)).chunked(500) {
            let texts = try chunk.map(text)
            for record in try context.fetch(FetchDescriptor<SyncIdentityRecord>(predicate: #Predicate { texts.contains($0.local) })) {
                if let server = ServerModel(text: record.server) { found[try identifier(record.local)] = server }
            }
        }
        return found
    }

    /// Whether no local model is mapped yet.
    func isEmptyMap() throws -> Bool {
        var descriptor = FetchDescriptor<SyncIdentityRecord>()
        descriptor.fetchLimit = 1
        return try context.fetch(descriptor).isEmpty
    }

    /// Every mapped model of an entity.
    func mapped(entity: String) throws -> [(server: ServerModel, local: PersistentIdentifier)] {
        try context.fetch(FetchDescriptor<SyncIdentityRecord>(predicate: #Predicate { $0.entity == entity })).compactMap { record in
            guard let server = ServerModel(text: record.server) else { return nil }
            return (server, try identifier(record.local))
        }
    }

    /// Maps a local model to a server model, replacing whatever either was mapped to, with what
    /// the server holds of it (``baseline(of:entity:_:)``).
    func map(_ local: PersistentIdentifier, to server: ServerModel, fresh: Bool = false, baseline: Data?) throws {
        let localText = try text(local)
        if !fresh {
            let serverText = server.text
            for record in try context.fetch(FetchDescriptor<SyncIdentityRecord>(predicate: #Predicate { $0.server == serverText || $0.local == localText })) {
                context.delete(record)
            }
        }
        context.insert(SyncIdentityRecord(entity: server.entity, server: server.text, local: localText, baseline: baseline))
    }

    func unmap(server: ServerModel) throws {
        let serverText = server.text
        for record in try context.fetch(FetchDescriptor<SyncIdentityRecord>(predicate: #Predicate { $0.server == serverText })) {
            context.delete(record)
        }
    }

    // MARK: Pending changes

    /// The oldest pending changes, at most `limit`.
    func pending(limit: Int) throws -> [PendingChange] {
        var descriptor = FetchDescriptor<SyncPendingRecord>(sortBy: [SortDescriptor(\.sequence)])
        descriptor.fetchLimit = limit
        return try context.fetch(descriptor).map(change)
    }

    /// The pending changes of those local models that have some.
    func pending(of locals: some Collection<PersistentIdentifier>) throws -> [PersistentIdentifier: PendingChange] {
        var found: [PersistentIdentifier: PendingChange] = [:]
        for chunk in Array(Set(locals)).chunked(500) {
            let texts = try chunk.map(text)
            for record in try context.fetch(FetchDescriptor<SyncPendingRecord>(predicate: #Predicate { texts.contains($0.local) })) {
                let change = try change(record)
                found[change.local] = change
            }
        }
        return found
    }

    /// The pending inserts of these entities.
    func pendingInserts(of entities: [String]) throws -> [PendingChange] {
        try context.fetch(FetchDescriptor<SyncPendingRecord>(predicate: #Predicate { $0.inserted && entities.contains($0.entity) })).map(change)
    }

    func pendingCount() throws -> Int {
        try context.fetchCount(FetchDescriptor<SyncPendingRecord>())
    }

    /// The next sequence number for a new pending change.
    func nextSequence() throws -> Int {
        var descriptor = FetchDescriptor<SyncPendingRecord>(sortBy: [SortDescriptor(\.sequence, order: .reverse)])
        descriptor.fetchLimit = 1
        return (try context.fetch(descriptor).first?.sequence ?? 0) + 1
    }

    /// Stores a pending change (an empty one removes the record).
    func store(_ change: PendingChange) throws {
        let localText = try text(change.local)
        let record = try context.fetch(FetchDescriptor<SyncPendingRecord>(predicate: #Predicate { $0.local == localText })).first
        if change.isEmpty {
            if let record { context.delete(record) }
            return
        }
        let target = record ?? SyncPendingRecord(local: localText, entity: change.entity, sequence: change.sequence)
        if record == nil { context.insert(target) }
        target.revision = change.revision
        target.inserted = change.inserted
        target.deleted = change.deleted
        target.properties = change.properties.sorted()
        target.server = change.server?.text
    }

    /// Removes what a push sent of a model's pending change: all of it while no change came in
    /// since (same revision); otherwise the model is now known to the server, so what is left
    /// is an update.
    func settle(_ sent: PendingChange) throws {
        let localText = try text(sent.local)
        guard let record = try context.fetch(FetchDescriptor<SyncPendingRecord>(predicate: #Predicate { $0.local == localText })).first else { return }
        if record.revision == sent.revision {
            context.delete(record)
        } else {
            record.inserted = false
        }
    }

    private func change(_ record: SyncPendingRecord) throws -> PendingChange {
        PendingChange(local: try identifier(record.local), entity: record.entity, sequence: record.sequence, revision: record.revision,
                      inserted: record.inserted, deleted: record.deleted, properties: Set(record.properties),
                      server: record.server.flatMap(ServerModel.init(text:)))
    }

    /// Commits what changed, and starts a fresh context so its registered records do not pile up.
    func save() throws {
        do {
            try context.save()
        } catch {
            throw SyncError(.localStoreFailure, "The sync state could not be saved (\(error)); the round stops and the next one starts from the last saved state.")
        }
        context = ModelContext(container)
    }

    /// Forgets what changed since the last save.
    func discard() {
        context = ModelContext(container)
    }
}

extension Array {
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
