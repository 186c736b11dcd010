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
    /// The records of the current context by key, and the keys known to have none
    /// (``SyncState+Records``): emptied with the context.
    var records = RecordCache()

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

    /// Commits what changed, and starts a fresh context so its registered records do not pile up.
    func save() throws {
        do {
            try context.save()
        } catch {
            throw SyncError(.localStoreFailure, "The sync state could not be saved (\(error)); the round stops and the next one starts from the last saved state.")
        }
        renewContext()
    }

    /// Forgets what changed since the last save.
    func discard() {
        renewContext()
    }

    private func renewContext() {
        context = ModelContext(container)
        records = RecordCache()
    }
}

extension Array {
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
