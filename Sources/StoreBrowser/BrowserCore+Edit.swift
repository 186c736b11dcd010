import Foundation
import HTTPTypes
import OpenSwiftData

/// Editing an attribute and deleting a model, in `--browse=edit` only, for a token that grants
/// writes. Each form posts its CSRF token; a failed save shows the store's error.
extension BrowserCore {
    func editForm(_ page: Page, entityName: String, key: String, attribute name: String) async throws -> StoreBrowserResponse {
        try requireEditing(page)
        let (entity, attribute, identifier) = try target(entityName, key, name)
        let read = try await readModel(identifier, entity: entity, snapshotOnly: true)
        let current = read.layout.index(ofProperty: name).map { read.layout.values(of: read.snapshot)[$0] } ?? nil
        let text = StoredValue.text(current)
        let editable = editableText(current, attribute: attribute) ?? ""
        return try editPage(page, entity: entity, attribute: attribute, identifier: identifier, read: read, value: editable, isNil: text == nil, error: nil)
    }

    func saveEdit(_ page: Page, entityName: String, key: String, attribute name: String) async throws -> StoreBrowserResponse {
        try requireEditing(page)
        let (entity, attribute, identifier) = try target(entityName, key, name)
        let text = page.request.form["value"] ?? ""
        let isNil = page.request.form["nil"] != nil
        let editor = ModelEditor(container: server.container, author: configuration.author)
        do {
            let json = try ValueInput.json(for: attribute, text: text, isNil: isNil)
            try await run { try editor.update(identifier, attribute: attribute, json: json) }
        } catch let error as BrowserError where error.status == .conflict || error.status == .unprocessableContent {
            let read = try await readModel(identifier, entity: entity, snapshotOnly: true)
            return try editPage(page, entity: entity, attribute: attribute, identifier: identifier, read: read, value: text, isNil: isNil,
                                error: error, status: error.status)
        }
        server.storeChanged()
        return .redirect(to: Links.with(page.request.path("model", entityName, key), [("saved", name)]))
    }

    func deleteForm(_ page: Page, entityName: String, key: String) async throws -> StoreBrowserResponse {
        try requireEditing(page)
        let entity = try schema.entity(named: entityName)
        let identifier = try ModelKey.identifier(entity: entityName, key: key, storeIdentifier: server.storeIdentifier)
        let read = try await readModel(identifier, entity: entity, snapshotOnly: true)
        return try deletePage(page, entity: entity, identifier: identifier, read: read, error: nil)
    }

    func delete(_ page: Page, entityName: String, key: String) async throws -> StoreBrowserResponse {
        try requireEditing(page)
        let entity = try schema.entity(named: entityName)
        let identifier = try ModelKey.identifier(entity: entityName, key: key, storeIdentifier: server.storeIdentifier)
        let editor = ModelEditor(container: server.container, author: configuration.author)
        do {
            try await run { try editor.delete(identifier) }
        } catch let error as BrowserError where error.status == .conflict {
            let read = try await readModel(identifier, entity: entity, snapshotOnly: true)
            return try deletePage(page, entity: entity, identifier: identifier, read: read, error: error, status: .conflict)
        }
        server.storeChanged()
        let view = EntityView(filter: page.request.query["filter"] ?? "")
        return .redirect(to: Links.with(page.request.path("entity", entityName), view.fields + [("deleted", key)]))
    }

    private func target(_ entityName: String, _ key: String, _ name: String)
        throws -> (BrowsedSchema.Entity, BrowsedSchema.Attribute, PersistentIdentifier) {
        let entity = try schema.entity(named: entityName)
        guard let attribute = entity.attribute(named: name), ValueInput.isEditable(attribute) else {
            throw BrowserError.notFound("\(entityName) has no attribute \(name) that the browser can edit.")
        }
        return (entity, attribute, try ModelKey.identifier(entity: entityName, key: key, storeIdentifier: server.storeIdentifier))
    }

    /// The value as its field shows it: JSON for collections and structures, text otherwise.
    private func editableText(_ value: Any?, attribute: BrowsedSchema.Attribute) -> String? {
        guard let unwrapped = StoredValue.unwrapped(value) else { return nil }
        if case .long = ValueInput.control(for: attribute, current: nil), let encodable = unwrapped as? any Encodable,
           attribute.type?.kind != .string {
            return StoredValue.json(encodable)
        }
        return StoredValue.text(unwrapped)
    }

    private func editPage(_ page: Page, entity: BrowsedSchema.Entity, attribute: BrowsedSchema.Attribute, identifier: PersistentIdentifier,
                          read: ModelRead, value: String, isNil: Bool, error: BrowserError?,
                          status: HTTPResponse.Status = .ok) throws -> StoreBrowserResponse {
        let request = page.request
        let key = ModelKey.text(of: identifier)
        let values = read.layout.values(of: read.snapshot)
        let heading = title(of: identifier, entity: entity) { name in read.layout.index(ofProperty: name).map { values[$0] } ?? nil }
        let control = ValueInput.control(for: attribute, current: value)
        var choices: [EditView.Choice] = []
        var inputMode = "text"
        switch control {
        case .choice(let names): choices = names.map { EditView.Choice(choiceValue: $0, choiceSelected: $0 == value) }
        case .number(let mode): inputMode = mode
        case .text, .long: break
        }
        let view = EditView(chrome: chrome(page, title: "Edit \(attribute.name)", current: entity.name), entity: entity.name,
                            entityHref: request.path("entity", entity.name), key: key, modelHref: request.path("model", identifier.entityName, key),
                            heading: heading, attributeName: attribute.name, typeName: TypeNames.name(of: attribute.valueType),
                            action: request.path("model", identifier.entityName, key, "edit", attribute.name), csrf: page.session.csrfToken,
                            errorTitle: error?.status == .conflict ? "The store refused the save; nothing changed:" : "The value was not saved:",
                            saveError: error?.message, value: value, isText: control == .text, isNumber: inputMode != "text",
                            inputMode: inputMode, isLong: control == .long, isChoice: !choices.isEmpty, choices: choices,
                            help: ValueInput.help(for: attribute), allowsNil: attribute.isOptional, isNil: isNil)
        return try render(view, template: "edit", status: status)
    }

    private func deletePage(_ page: Page, entity: BrowsedSchema.Entity, identifier: PersistentIdentifier, read: ModelRead,
                            error: BrowserError?, status: HTTPResponse.Status = .ok) throws -> StoreBrowserResponse {
        let request = page.request
        let key = ModelKey.text(of: identifier)
        let values = read.layout.values(of: read.snapshot)
        let heading = title(of: identifier, entity: entity) { name in read.layout.index(ofProperty: name).map { values[$0] } ?? nil }
        let view = DeleteView(chrome: chrome(page, title: "Delete \(heading)", current: entity.name), entity: entity.name,
                              entityHref: request.path("entity", entity.name), key: key, modelHref: request.path("model", identifier.entityName, key),
                              heading: heading, action: request.path("model", identifier.entityName, key, "delete"), csrf: page.session.csrfToken,
                              saveError: error?.message, consequences: consequences(of: entity))
        return try render(view, template: "delete", status: status)
    }

    /// What the delete rules do when a model of the entity is deleted.
    private func consequences(of entity: BrowsedSchema.Entity) -> String {
        var parts: [String] = []
        let byRule = Dictionary(grouping: entity.relationships, by: \.deleteRule)
        if let cascade = byRule[.cascade] { parts.append("also deletes the models in \(cascade.map(\.name).joined(separator: ", ")) (cascade)") }
        if let nullify = byRule[.nullify] { parts.append("removes it from the models in \(nullify.map(\.name).joined(separator: ", ")) (nullify)") }
        if let deny = byRule[.deny] { parts.append("is refused while \(deny.map(\.name).joined(separator: ", ")) holds models (deny)") }
        if let none = byRule[.noAction] { parts.append("leaves the models in \(none.map(\.name).joined(separator: ", ")) as they are (no action)") }
        guard !parts.isEmpty else { return "The delete is saved through a model context; this entity has no relationships." }
        return "The delete is saved through a model context, so the delete rules apply: deleting it " + parts.joined(separator: "; ") + "."
    }
}
