import Foundation
import HTTPTypes
import OpenSwiftData

/// Edits and deletes models through a `ModelContext` of the server's container, as an app would:
/// the value goes through the model's own setter, and the save applies unique constraints and
/// delete rules. A failed save changes nothing in the store.
struct ModelEditor {
    let container: ModelContainer
    let author: String

    /// Sets one attribute to the value `json` (an array of one value) decodes to, and saves.
    func update(_ identifier: PersistentIdentifier, attribute: BrowsedSchema.Attribute, json: Data) throws {
        guard let valueType = attribute.valueType as? any Decodable.Type else {
            throw BrowserError(.unprocessableContent, "\(attribute.name) has a type the browser cannot decode, so it cannot be edited here.")
        }
        try withModel(identifier) { model, context in
            try assign(json, as: valueType, to: attribute.name, of: model)
            try save(context)
        }
    }

    func delete(_ identifier: PersistentIdentifier) throws {
        try withModel(identifier) { model, context in
            func delete<M: PersistentModel>(_ model: M) { context.delete(model) }
            delete(model)
            try save(context)
        }
    }

    private func withModel(_ identifier: PersistentIdentifier, _ body: (any PersistentModel, ModelContext) throws -> Void) throws {
        guard let type = container.schema.entitiesByName[identifier.entityName]?.modelType else {
            throw BrowserError.notFound("The container has no model type for \(identifier.entityName).")
        }
        let context = ModelContext(container)
        context.author = author
        func fetch<M: PersistentModel>(_: M.Type) throws -> M? {
            var descriptor = FetchDescriptor<M>(predicate: #Predicate<M> { $0.persistentModelID == identifier })
            descriptor.fetchLimit = 1
            return try context.fetch(descriptor).first
        }
        guard let model = try fetch(type) else {
            throw BrowserError.notFound("\(identifier.entityName) \(ModelKey.text(of: identifier)) is not in the store; it may have been deleted.")
        }
        try body(model, context)
    }

    /// Decodes the value and writes it through the model's key path for the attribute, looked up
    /// in the model's class and then in the classes it inherits from.
    private func assign(_ json: Data, as valueType: any Decodable.Type, to name: String, of model: any PersistentModel) throws {
        var entity = container.schema.entitiesByName[model.persistentModelID.entityName]
        while let current = entity {
            if let type = current.modelType, try assign(json, as: valueType, to: name, of: model, through: type) { return }
            entity = current.superentity ?? current.superentityName.flatMap { container.schema.entitiesByName[$0] }
        }
        throw BrowserError(.unprocessableContent, "\(name) cannot be written through its model's key path.")
    }

    private func assign<M: PersistentModel>(_ json: Data, as valueType: any Decodable.Type, to name: String, of model: any PersistentModel,
                                            through _: M.Type) throws -> Bool {
        guard let typed = model as? M, let keyPath = M.schemaMetadata.first(where: { $0.name == name })?.keypath else { return false }
        func set<V: Decodable>(_: V.Type) throws -> Bool {
            guard let writable = keyPath as? ReferenceWritableKeyPath<M, V> else { return false }
            let value: V
            do {
                value = try ValueInput.decoder().decode([V].self, from: json)[0]
            } catch {
                throw BrowserError(.unprocessableContent, "\(name) needs a \(TypeNames.name(of: V.self)): \(ValueInput.reason(error))")
            }
            typed[keyPath: writable] = value
            return true
        }
        return try set(valueType)
    }

    private func save(_ context: ModelContext) throws {
        do {
            try context.save()
        } catch {
            throw BrowserError(.conflict, BrowserCore.message(of: error))
        }
    }
}
