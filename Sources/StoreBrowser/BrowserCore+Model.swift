import Foundation
import HTTPTypes
import OpenSwiftData

/// A model's page: its attributes, its relationships as links, its history.
extension BrowserCore {
    /// What a model page reads from the store, in one trip to its threads.
    struct ModelRead: Sendable {
        let snapshot: DefaultSnapshot
        let layout: DataStoreRowLayout
        /// Labels of related models, by identifier.
        let labels: [PersistentIdentifier: String]
        let history: Result<ModelHistory.Page, BrowserError>
    }

    func modelPage(_ page: Page, entityName: String, key: String) async throws -> StoreBrowserResponse {
        let request = page.request
        let entity = try schema.entity(named: entityName)
        let identifier = try ModelKey.identifier(entity: entityName, key: key, storeIdentifier: server.storeIdentifier)
        let before = request.query["historyBefore"].flatMap(Int64.init)
        let read = try await readModel(identifier, entity: entity, historyBefore: before)
        let values = read.layout.values(of: read.snapshot)
        func value(_ name: String) -> Any? { read.layout.index(ofProperty: name).map { values[$0] } ?? nil }
        let heading = title(of: identifier, entity: entity, value: value)
        let canEdit = editing(page)
        let attributes = entity.attributes.map { attribute in
            let text = StoredValue.text(value(attribute.name))
            return ModelView.Attribute(attributeName: attribute.name, typeName: TypeNames.name(of: attribute.valueType), valueText: text ?? "",
                                       valueIsNil: text == nil,
                                       editHref: canEdit && ValueInput.isEditable(attribute) ? request.path("model", entityName, key, "edit", attribute.name) : nil)
        }
        let relationships = entity.relationships.map { relationship in
            let related = relatedIdentifiers(value(relationship.name))
            let shown = related.prefix(Self.relatedShown).map { id in
                ModelView.Related(relatedLabel: read.labels[id] ?? "\(id.entityName) \(ModelKey.text(of: id))",
                                  relatedHref: request.path("model", id.entityName, ModelKey.text(of: id)))
            }
            return ModelView.Relationship(
                relationshipName: relationship.name, shape: relationship.isToMany ? "to-many" : "to-one", destination: relationship.destination,
                destinationHref: request.path("entity", relationship.destination), rule: relationship.deleteRule.rawValue,
                hasRelated: !shown.isEmpty, related: Array(shown),
                moreText: related.count > Self.relatedShown ? "and \(Numbers.grouped(related.count - Self.relatedShown)) more" : nil)
        }
        var historyNote: String?
        var changes: [ModelView.Change] = []
        var olderHref: String?
        switch read.history {
        case .success(let history):
            changes = history.entries.map { entry in
                ModelView.Change(when: DateText.format(entry.timestamp), kind: entry.kind, author: entry.author ?? "an unnamed author",
                                 changedAttributes: entry.attributes.isEmpty ? nil : entry.attributes.joined(separator: ", "))
            }
            if changes.isEmpty { historyNote = before == nil ? "The store's history holds no change of this model." : "No older changes." }
            olderHref = history.olderThan.map { Links.with(request.path("model", entityName, key), [("historyBefore", String($0))]) }
        case .failure(let error):
            historyNote = error.message
        }
        let notice = request.query["saved"].map { "Saved \($0)." }
        let view = ModelView(chrome: chrome(page, title: heading, current: entity.name, live: true, notice: notice), entity: entity.name,
                             entityHref: request.path("entity", entity.name), key: key, heading: heading, canEdit: canEdit,
                             attributes: attributes, relationships: relationships, deleteHref: request.path("model", entityName, key, "delete"),
                             historyNote: historyNote, hasChanges: !changes.isEmpty, changes: changes, olderHref: olderHref)
        return try render(view, template: "model")
    }

    private static let relatedShown = 50

    /// The model's snapshot, and unless `snapshotOnly`, the labels of the models it relates to
    /// and its history.
    func readModel(_ identifier: PersistentIdentifier, entity: BrowsedSchema.Entity, historyBefore: Int64? = nil,
                   snapshotOnly: Bool = false) async throws -> ModelRead {
        guard let modelType = try schema.entity(named: identifier.entityName).modelType ?? entity.modelType else {
            throw BrowserError.notFound("The server has no model type for \(identifier.entityName), so its models cannot be read.")
        }
        let layout = DataStoreRowLayout(for: modelType)
        return try await run { [server] in
            let query = DataStoreQuery(entityName: identifier.entityName, filter: Self.identifying(identifier), fetchLimit: 1)
            guard let snapshot = try server.snapshots(query).first else {
                throw BrowserError.notFound("\(identifier.entityName) \(ModelKey.text(of: identifier)) is not in the store; it may have been deleted.")
            }
            if snapshotOnly { return ModelRead(snapshot: snapshot, layout: layout, labels: [:], history: .success(ModelHistory.Page(entries: [], olderThan: nil))) }
            let values = layout.values(of: snapshot)
            var labels: [PersistentIdentifier: String] = [:]
            for relationship in entity.relationships {
                let related = self.relatedIdentifiers(layout.index(ofProperty: relationship.name).map { values[$0] } ?? nil)
                labels.merge(self.labels(of: Array(related.prefix(Self.relatedShown)))) { first, _ in first }
            }
            let history: Result<ModelHistory.Page, BrowserError>
            if server.keepsHistory {
                do {
                    history = .success(try ModelHistory(container: server.container).page(of: identifier, before: historyBefore))
                } catch {
                    history = .failure(BrowserError(.internalServerError, "The history could not be read: \(Self.message(of: error))"))
                }
            } else {
                history = .failure(BrowserError(.notFound, "This store keeps no history."))
            }
            return ModelRead(snapshot: snapshot, layout: layout, labels: labels, history: history)
        }
    }

    /// `Entity key: title` for related models whose entity has a title attribute, one query per
    /// entity the models belong to (a relationship to a class may hold its subclasses' models);
    /// call on the store's threads. Labels are a courtesy: a store that cannot look them up by
    /// identifier leaves the models to be shown by key.
    func labels(of identifiers: [PersistentIdentifier]) -> [PersistentIdentifier: String] {
        var labels: [PersistentIdentifier: String] = [:]
        for (entityName, members) in Dictionary(grouping: identifiers, by: \.entityName) {
            guard let entity = try? schema.entity(named: entityName), let titleAttribute = Self.titleAttribute(of: entity),
                  let type = entity.modelType else { continue }
            let layout = DataStoreRowLayout(for: type)
            guard let index = layout.index(ofProperty: titleAttribute.name) else { continue }
            let lookup = DataStoreQuery(entityName: entity.name, filter: .in(.identifier, members.map(QueryValue.identifier), type: QueryValueType(.identifier)))
            for related in (try? server.snapshots(lookup)) ?? [] {
                if let text = StoredValue.text(layout.values(of: related)[index]) {
                    labels[related.persistentIdentifier] = "\(related.persistentIdentifier.entityName) \(ModelKey.text(of: related.persistentIdentifier)): \(text)"
                }
            }
        }
        return labels
    }

    /// `persistentModelID == identifier`.
    static func identifying(_ identifier: PersistentIdentifier) -> QueryExpression {
        .comparison(.identifier, .equal, .value(.identifier(identifier)), type: QueryValueType(.identifier))
    }

    /// The identifiers a relationship's stored value holds.
    func relatedIdentifiers(_ value: Any?) -> [PersistentIdentifier] {
        let value = StoredValue.unwrapped(value)
        if let identifier = value as? PersistentIdentifier { return [identifier] }
        return value as? [PersistentIdentifier] ?? []
    }

    /// `Trip 42: Paris`, naming a model by its title attribute where it has one.
    func title(of identifier: PersistentIdentifier, entity: BrowsedSchema.Entity, value: (String) -> Any?) -> String {
        let base = "\(identifier.entityName) \(ModelKey.text(of: identifier))"
        guard let attribute = Self.titleAttribute(of: entity), let text = StoredValue.text(value(attribute.name)) else { return base }
        return "\(base): \(text.count > 60 ? String(text.prefix(60)) + "…" : text)"
    }

    /// The attribute that names a model: one called name or title, else the first string attribute.
    static func titleAttribute(of entity: BrowsedSchema.Entity) -> BrowsedSchema.Attribute? {
        let strings = entity.attributes.filter { $0.type?.kind == .string }
        return strings.first { ["name", "title"].contains($0.name.lowercased()) } ?? strings.first
    }
}
