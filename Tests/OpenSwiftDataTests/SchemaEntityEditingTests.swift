import OpenSwiftData
import Testing

/// An entity built by hand is edited through SwiftData's settable collections, as Core Data
/// models are: replacing one kind of property keeps the other.
@Suite struct SchemaEntityEditingTests {
    @Test func settingAttributesReplacesStoredAttributesAndKeepsRelationships() {
        let entity = Schema.Entity("Note", properties:
            Schema.Attribute(name: "title", valueType: String.self),
            Schema.Relationship(deleteRule: .nullify))
        entity.relationships.first?.name = "tags"
        entity.attributes = [Schema.Attribute(name: "body", valueType: String.self),
                             Schema.Attribute(name: "author", valueType: String.self)]
        #expect(entity.storedProperties.map(\.name) == ["tags", "author", "body"])
        #expect(entity.attributesByName.keys.sorted() == ["author", "body"])
        #expect(entity.relationshipsByName.keys.sorted() == ["tags"])
    }

    @Test func settingRelationshipsByNameReplacesStoredRelationshipsAndKeepsAttributes() {
        let entity = Schema.Entity("Note", properties: Schema.Attribute(name: "title", valueType: String.self))
        let tags = Schema.Relationship(deleteRule: .cascade)
        tags.name = "tags"
        entity.relationshipsByName = ["tags": tags]
        #expect(entity.storedProperties.map(\.name) == ["title", "tags"])
        #expect(entity.relationshipsByName["tags"]?.deleteRule == .cascade)
    }

    @Test func settingStoredPropertiesByNameOrdersThemByName() {
        let entity = Schema.Entity("Note")
        entity.storedPropertiesByName = ["title": Schema.Attribute(name: "title", valueType: String.self),
                                         "body": Schema.Attribute(name: "body", valueType: String.self)]
        #expect(entity.storedProperties.map(\.name) == ["body", "title"])
        #expect(entity.inheritedProperties.isEmpty)
    }
}
