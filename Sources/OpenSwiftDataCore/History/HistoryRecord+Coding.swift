import Foundation

/// A record's JSON form, shared by `StoreServer`'s answers and `JSONStore`'s file:
///
/// ```json
/// {"transactionIdentifier": 3, "timestamp": 786000000, "author": "widget", "bundleIdentifier": "trips",
///  "processIdentifier": "4242", "changes": [
///     {"changeIdentifier": 7, "kind": "update", "changedPersistentIdentifier": {…}, "updatedAttributes": ["name"]},
///     {"changeIdentifier": 8, "kind": "delete", "changedPersistentIdentifier": {…}, "tombstone": {"name": "Rome"}}]}
/// ```
///
/// A tombstone's values are decoded as the types of this process's model type for the change's
/// entity; values of properties it lacks, or of an entity it has no model type for, are left out.
extension HistoryRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case transactionIdentifier, timestamp, author, bundleIdentifier, processIdentifier, changes
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        transactionIdentifier = try container.decode(Int64.self, forKey: .transactionIdentifier)
        timestamp = try container.decode(Date.self, forKey: .timestamp)
        author = try container.decodeIfPresent(String.self, forKey: .author)
        bundleIdentifier = try container.decode(String.self, forKey: .bundleIdentifier)
        processIdentifier = try container.decode(String.self, forKey: .processIdentifier)
        changes = try container.decode([Change].self, forKey: .changes)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(transactionIdentifier, forKey: .transactionIdentifier)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(author, forKey: .author)
        try container.encode(bundleIdentifier, forKey: .bundleIdentifier)
        try container.encode(processIdentifier, forKey: .processIdentifier)
        try container.encode(changes, forKey: .changes)
    }
}

extension HistoryRecord.Change: Codable {
    private enum CodingKeys: String, CodingKey {
        case changeIdentifier, kind, changedPersistentIdentifier, updatedAttributes, tombstone
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        changeIdentifier = try container.decode(Int64.self, forKey: .changeIdentifier)
        identifier = try container.decode(PersistentIdentifier.self, forKey: .changedPersistentIdentifier)
        switch try container.decode(String.self, forKey: .kind) {
        case "insert": kind = .insert
        case "update": kind = .update(try container.decodeIfPresent([String].self, forKey: .updatedAttributes) ?? [])
        case "delete":
            guard container.contains(.tombstone) else {
                kind = .delete(HistoryValues())
                break
            }
            let values = try container.nestedContainer(keyedBy: AnyKey.self, forKey: .tombstone)
            kind = .delete(try HistoryValues(from: values, entityName: identifier.entityName))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "A history change is an insert, update or delete, not '\(other)'.")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(changeIdentifier, forKey: .changeIdentifier)
        try container.encode(identifier, forKey: .changedPersistentIdentifier)
        switch kind {
        case .insert:
            try container.encode("insert", forKey: .kind)
        case .update(let names):
            try container.encode("update", forKey: .kind)
            try container.encode(names, forKey: .updatedAttributes)
        case .delete(let values):
            try container.encode("delete", forKey: .kind)
            var tombstone = container.nestedContainer(keyedBy: AnyKey.self, forKey: .tombstone)
            try values.encode(to: &tombstone)
        }
    }
}

/// A coding key of any name: a tombstone's property names.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension HistoryValues {
    /// The values of `entityName`'s attributes, as its model type declares them.
    fileprivate init(from container: KeyedDecodingContainer<AnyKey>, entityName: String) throws {
        var byName: [String: Any] = [:]
        if let type = EntityRegistry.modelType(named: entityName) {
            let info = ModelTypeInfo.of(type)
            for key in container.allKeys {
                guard let property = info.property(named: key.stringValue), case .attribute = property.shape else { continue }
                let optional = property.valueType as? any AnyOptional.Type
                guard let decodable = (optional?.optionalWrappedType ?? property.valueType) as? any Decodable.Type else { continue }
                if try container.decodeNil(forKey: key) {
                    byName[key.stringValue] = optional?.nilValue
                    continue
                }
                func decode<Value: Decodable>(_: Value.Type) throws -> Any {
                    let value = try container.decode(Value.self, forKey: key)
                    return optional == nil ? value : Optional(value) as Any
                }
                byName[key.stringValue] = try decode(decodable)
            }
        }
        self.init(byName)
    }

    fileprivate func encode(to container: inout KeyedEncodingContainer<AnyKey>) throws {
        for (name, value) in byName.sorted(by: { $0.key < $1.key }) {
            guard let present = unwrapOptional(value) else {
                try container.encodeNil(forKey: AnyKey(stringValue: name))
                continue
            }
            guard let encodable = present as? any Encodable else {
                throw EncodingError.invalidValue(present, .init(codingPath: container.codingPath, debugDescription:
                    "The tombstone value of '\(name)' is a \(type(of: present)), which is not Encodable; persisted properties must be Codable."))
            }
            try container.encode(encodable, forKey: AnyKey(stringValue: name))
        }
    }
}
