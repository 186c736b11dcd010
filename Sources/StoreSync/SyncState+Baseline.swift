import Foundation
import SwiftData

/// Baselines: what the server holds of each mapped model as far as this client knows, property
/// by property, as the client last pushed it or applied it from a pull. Attributes are kept in
/// their JSON form and relationships as the local identifiers of their targets, so a model can
/// be compared with its baseline without the network. When local history the engine had not
/// read is gone, that comparison tells which properties changed in it.
extension SyncState {
    /// The JSON object of a model's travelling properties among `names` (all when nil).
    func baseline(of model: any PersistentModel, entity: SyncEntity, _ names: Set<String>? = nil) throws -> Data {
        let properties = entity.properties.filter { $0.travels && names?.contains($0.name) != false }
        return try baselineEncoder.encode(BaselineValues(model: model, properties: properties, text: text))
    }

    /// The baselines of those mapped local models that have one.
    func baselines(of locals: some Collection<PersistentIdentifier>) throws -> [PersistentIdentifier: Data] {
        var found: [PersistentIdentifier: Data] = [:]
        for record in try identityRecords(locals: try locals.map(text)).values {
            if let baseline = record.baseline { found[try identifier(record.local)] = baseline }
        }
        return found
    }

    /// Records that the server now holds these properties of mapped models (each a
    /// ``baseline(of:entity:_:)`` of some properties), over what it held of the others.
    func recordBaselines(_ baselines: [PersistentIdentifier: Data]) throws {
        for record in try identityRecords(locals: try baselines.keys.map(text)).values {
            guard let baseline = baselines[try identifier(record.local)] else { continue }
            let merged = try Self.merge(baseline, over: record.baseline)
            // Unchanged records stay clean, so the state's save does not rewrite them.
            if merged != record.baseline { record.baseline = merged }
        }
    }

    /// The travelling properties of a model whose value is not the one in its baseline (every
    /// one the baseline lacks).
    func changedSinceBaseline(_ model: any PersistentModel, entity: SyncEntity, baseline: Data?) throws -> Set<String> {
        let current = try Self.object(try self.baseline(of: model, entity: entity))
        let known = try baseline.map(Self.object) ?? [:]
        var changed: Set<String> = []
        for (name, value) in current {
            if let old = known[name], try Self.same(old, value) { continue }
            changed.insert(name)
        }
        return changed
    }

    private static func merge(_ new: Data, over old: Data?) throws -> Data {
        // Equal bytes: the pull of a model this client pushed, which the server holds as sent.
        guard let old, old != new else { return new }
        var values = try object(old)
        for (name, value) in try object(new) { values[name] = value }
        return try JSONSerialization.data(withJSONObject: values, options: .sortedKeys)
    }

    private static func object(_ data: Data) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Whether two values read from baselines are the same JSON value.
    private static func same(_ lhs: Any, _ rhs: Any) throws -> Bool {
        try JSONSerialization.data(withJSONObject: [lhs], options: .sortedKeys) == JSONSerialization.data(withJSONObject: [rhs], options: .sortedKeys)
    }
}

/// A model's properties as a baseline encodes them.
private struct BaselineValues: Encodable {
    let model: any PersistentModel
    let properties: [SyncProperty]
    let text: (PersistentIdentifier) throws -> String

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PropertyKey.self)
        for property in properties {
            let key = PropertyKey(property.name)
            switch property.access {
            case .attribute(let access):
                try access.encode(of: model, into: &container, forKey: key)
            case .optionalToOne(let access, _):
                try container.encode(try access.target(of: model).map { try text($0.persistentModelID) }, forKey: key)
            case .requiredToOne(let access, _):
                try container.encode(try access.target(of: model).map { try text($0.persistentModelID) }, forKey: key)
            case .toMany(let access, _):
                // A to-many relationship's order is not kept by every store.
                try container.encode(try access.targets(of: model).map { try text($0.persistentModelID) }.sorted(), forKey: key)
            }
        }
    }
}
