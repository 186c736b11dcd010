import Foundation
import OpenSwiftData

/// The JSON store's side of a ``SchemaMigrator`` run: the file's bytes in memory, reshaped at each
/// stage, and a working copy beside the file that custom stages' contexts save into. Nothing here
/// touches the store's file; `JSONStore.migrate(_:)` replaces it once with ``finishedFile()``.
final class JSONMigrationTarget: SchemaMigrationTarget {
    private let store: JSONStore
    private let scratch: URL
    private let stored: StoredSchema?
    /// The whole file as it stands at this point of the migration.
    private var bytes: Data
    private var record: StoredSchema?
    private var changed = false
    /// Whether a custom stage's store may have saved into the working copy since it was written.
    private var scratchIsCurrent = false

    init(store: JSONStore, scratch: URL, stored: StoredSchema?, bytes: Data) {
        self.store = store
        self.scratch = scratch
        self.stored = stored
        self.bytes = bytes
        record = stored
    }

    static func scratchURL(of url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).migrating")
    }

    /// Removes the working copy and the lock file its store made.
    static func remove(_ scratch: URL) {
        let lock = scratch.deletingLastPathComponent().appendingPathComponent(".\(scratch.lastPathComponent).lock")
        for file in [scratch, lock] { try? FileManager.default.removeItem(at: file) }
    }

    func storedSchema() throws -> StoredSchema? { stored }

    func applySchemaChange(to schema: Schema, recording record: StoredSchema) throws {
        try collectScratch()
        guard self.record != record else { return }
        bytes = try reshaped(to: schema, recording: record)
        self.record = record
        changed = true
    }

    func migrationContainer(for schema: Schema) throws -> ModelContainer {
        try collectScratch()
        do {
            try bytes.write(to: scratch)
        } catch {
            throw JSONStoreError(.ioFailure, "The JSON store cannot write its migration's working copy \(scratch.path): \(error). Check the directory's permissions and free space.", url: store.url, underlying: error)
        }
        scratchIsCurrent = true
        var configuration = store.configuration
        configuration.url = scratch
        configuration.schema = schema
        return try ModelContainer(for: JSONStore(configuration, identifier: store.identifier, migrationPlan: nil))
    }

    /// The migrated file, or nil when the migration changed nothing.
    func finishedFile() throws -> Data? {
        try collectScratch()
        return changed ? bytes : nil
    }

    private func collectScratch() throws {
        guard scratchIsCurrent else { return }
        scratchIsCurrent = false
        do {
            bytes = try Data(contentsOf: scratch)
        } catch {
            throw JSONStoreError(.ioFailure, "The JSON store cannot read its migration's working copy \(scratch.path): \(error).", url: store.url, underlying: error)
        }
        changed = true
    }

    /// Each model brought to `schema`: properties renamed through `originalName`, those the
    /// schema drops removed, models of removed entities left out, and each model decoded with the
    /// new types (which fills new properties' defaults, and refuses nil in a non-optional property
    /// or a value of another type), then checked against the uniqueness constraints.
    private func reshaped(to schema: Schema, recording record: StoredSchema) throws -> Data {
        let elements: [Any]
        do {
            guard let array = try JSONSerialization.jsonObject(with: bytes) as? [Any] else { throw refusal(nil, "the file is not a JSON array") }
            elements = array
        } catch let error as JSONStoreError {
            throw error
        } catch {
            throw JSONStoreError(.unreadableFile, "The JSON store cannot read \(store.url.path) to migrate it: \(error). Restore the file from a backup.", url: store.url, underlying: error)
        }
        var fragments: [Data] = []
        var uniqueKeys: [String: Set<Data>] = [:]
        for element in elements {
            guard var object = element as? [String: Any], object["schemaRecord"] == nil,
                  let identifier = object["persistentIdentifier"] as? [String: Any],
                  let entityName = (identifier["implementation"] as? [String: Any])?["entityName"] as? String else { continue }
            guard let entity = schema.entitiesByName[entityName] else { continue }
            let names = Self.persistedNames(of: entity)
            for (name, original) in names where object[name] == nil {
                if let original, let value = object.removeValue(forKey: original) { object[name] = value }
            }
            object = object.filter { $0.key == "persistentIdentifier" || names[$0.key] != nil }
            let snapshot: DefaultSnapshot
            do {
                snapshot = try store.coder.decodeSnapshot(try JSONSerialization.data(withJSONObject: object))
            } catch {
                throw refusal(entityName, Self.describe(error))
            }
            let fragment = try store.coder.encode(snapshot)
            try checkUnique(fragment, of: entity, into: &uniqueKeys)
            fragments.append(fragment)
        }
        return store.coder.file([try store.coder.encode(record)] + fragments, count: fragments.count + 1)
    }

    private func checkUnique(_ fragment: Data, of entity: Schema.Entity, into keys: inout [String: Set<Data>]) throws {
        guard !entity.uniquenessConstraints.isEmpty, let values = try JSONSerialization.jsonObject(with: fragment) as? [String: Any] else { return }
        for constraint in entity.uniquenessConstraints {
            let parts = constraint.map { values[$0] ?? NSNull() }
            // Models holding nil on a constraint never match, as in a save.
            guard !parts.contains(where: { $0 is NSNull }) else { continue }
            let key = try JSONSerialization.data(withJSONObject: parts, options: [.sortedKeys])
            guard keys["\(entity.name).\(constraint)", default: []].insert(key).inserted else {
                throw refusal(entity.name, "two models share their values of \(constraint.joined(separator: ", ")), which are now unique; remove the duplicates in a custom stage's willMigrate")
            }
        }
    }

    /// Persisted property names, each with the name it had before (`originalName`), if another.
    private static func persistedNames(of entity: Schema.Entity) -> [String: String?] {
        var names: [String: String?] = [:]
        for property in entity.properties {
            if let attribute = property as? Schema.Attribute {
                guard !attribute.isTransient else { continue }
                names[attribute.name] = attribute.originalName.isEmpty || attribute.originalName == attribute.name ? nil : attribute.originalName
            } else if let relationship = property as? Schema.Relationship {
                names[relationship.name] = relationship.originalName.isEmpty || relationship.originalName == relationship.name ? nil : relationship.originalName
            }
        }
        return names
    }

    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(_, let context), .dataCorrupted(let context): return context.debugDescription
        case .typeMismatch(let type, let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' holds a value that is not a \(type); keep the property's type, or add a new property and copy the values over in a custom stage"
        case .valueNotFound(_, let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' holds nil but is not optional"
        @unknown default: return "\(error)"
        }
    }

    private func refusal(_ entityName: String?, _ reason: String) -> JSONStoreError {
        let subject = entityName.map { "A \($0) model" } ?? "The file"
        return JSONStoreError(.incompatibleSchema, "\(subject) cannot be migrated: \(reason). Add a custom stage whose willMigrate fixes those models, give the property a default value, or open the file with the schema that wrote it. The file is unchanged.", url: store.url)
    }
}
