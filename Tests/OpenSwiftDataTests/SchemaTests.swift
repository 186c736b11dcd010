import Foundation
import OpenSwiftData
import Testing

@Model final class Author {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Book.author) var books: [Book] = []
    init(name: String) { self.name = name }
}

@Model final class Book {
    @Attribute(.unique) var isbn: String
    var title: String
    var author: Author?
    #Index<Book>([\.title], [\.title, \.isbn])
    init(isbn: String, title: String) {
        self.isbn = isbn
        self.title = title
    }
}

@Suite struct SchemaTests {
    @Test func entitiesDescribeTheModelsProperties() throws {
        let schema = Schema([Trip.self])
        let trip = try #require(schema.entity(for: Trip.self))
        #expect(trip.name == "Trip")
        #expect(trip.storedProperties.map(\.name) == ["name", "destination", "startDate", "budget", "notes"])
        #expect(trip.attributesByName["destination"]?.originalName == "dest")
        #expect(trip.attributesByName["notes"]?.isOptional == true)
        #expect(trip.attributesByName["name"]?.isOptional == false)
        #expect(trip.attributesByName["budget"]?.defaultValue as? Double == 0)
        #expect(trip.attributesByName["startDate"]?.valueType == Date.self)
        #expect(trip.uniquenessConstraints == [["name", "startDate"]])
        #expect(Schema.entityName(for: Trip.self) == "Trip")
    }

    @Test func relatedModelTypesArePulledInAndInversesResolved() throws {
        let schema = Schema([Author.self])
        #expect(schema.entities.map(\.name) == ["Author", "Book"])
        let books = try #require(schema.entitiesByName["Author"]?.relationshipsByName["books"])
        #expect(books.destination == "Book")
        #expect(books.deleteRule == .cascade)
        #expect(!books.isToOneRelationship)
        #expect(books.inverseName == "author")
        let author = try #require(schema.entitiesByName["Book"]?.relationshipsByName["author"])
        #expect(author.isToOneRelationship && author.isOptional)
        #expect(author.inverseName == "books")
        #expect(author.deleteRule == .nullify)
    }

    @Test func uniqueAttributesAndIndexesAreRecorded() throws {
        let book = try #require(Schema([Book.self]).entitiesByName["Book"])
        #expect(book.uniquenessConstraints == [["isbn"]])
        #expect(book.indices == [["title"], ["title", "isbn"]])
        #expect(book.attributesByName["isbn"]?.isUnique == true)
    }

    @Test func aModelDeclaringItsOwnIdKeepsIt() throws {
        let item = Item(timestamp: epoch)
        #expect(type(of: item.id) == UUID.self)
        let entity = try #require(Schema([Item.self]).entitiesByName["Item"])
        #expect(entity.storedProperties.map(\.name) == ["id", "timestamp"])
        #expect(entity.uniquenessConstraints == [["id"]])
    }

    @Test func schemaRoundTripsThroughJSON() throws {
        let schema = Schema([Author.self], version: Schema.Version(2, 1, 0))
        let decoded = try JSONDecoder().decode(Schema.self, from: JSONEncoder().encode(schema))
        #expect(decoded.version == Schema.Version(2, 1, 0))
        #expect(decoded.entities.map(\.name) == ["Author", "Book"])
        #expect(decoded.entitiesByName["Book"]?.uniquenessConstraints == [["isbn"]])
        #expect(decoded.entitiesByName["Author"]?.relationshipsByName["books"]?.inverseName == "author")
    }

    @Test func versionsOrderLikeSemanticVersions() {
        #expect(Schema.Version(1, 2, 3) < Schema.Version(1, 10, 0))
        #expect(Schema.Version(2, 0, 0) > Schema.Version(1, 99, 99))
        #expect(Schema.Version(1, 2, 3).description == "1.2.3")
    }
}
