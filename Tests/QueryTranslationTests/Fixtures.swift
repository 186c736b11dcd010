import Foundation
import OpenSwiftData

enum Status: String, Codable, Sendable, CaseIterable {
    case planned, booked, done
}

/// Its `<` is its own (here: by declaration order), not its raw values' order.
enum Level: Int, Codable, Sendable, Comparable {
    case high = 1, low = 2

    static func < (lhs: Level, rhs: Level) -> Bool {
        lhs == .high && rhs == .low
    }
}

/// Equal by identity, as models are.
final class PlaceRow: Identifiable, Equatable {
    var persistentModelID: PersistentIdentifier
    var name: String
    var id: PersistentIdentifier { persistentModelID }

    init(persistentModelID: PersistentIdentifier, name: String) {
        self.persistentModelID = persistentModelID
        self.name = name
    }

    static func == (lhs: PlaceRow, rhs: PlaceRow) -> Bool {
        lhs.persistentModelID == rhs.persistentModelID
    }
}

/// A stand-in for an `@Model` class: the translator only sees key paths and values.
final class TripRow {
    var persistentModelID: PersistentIdentifier
    var name: String
    var destination: String
    var startDate: Date
    var notes: String?
    var budget: Double
    var discount: Double?
    var nights: Int
    var rating: Int?
    var isFavorite: Bool
    var tags: [String]
    var status: Status
    var id: UUID
    var place: PlaceRow?
    var places: [PlaceRow] = []
    var float: Float
    var unsigned: UInt64
    var level: Level
    /// Not in the schema.
    var scratch: String

    init(persistentModelID: PersistentIdentifier = Fixtures.tripID(1), name: String = "", destination: String = "",
         startDate: Date = Date(timeIntervalSinceReferenceDate: 0), notes: String? = nil, budget: Double = 0,
         discount: Double? = nil, nights: Int = 0, rating: Int? = nil, isFavorite: Bool = false, tags: [String] = [],
         status: Status = .planned, id: UUID = Fixtures.uuid(0), place: PlaceRow? = nil) {
        self.persistentModelID = persistentModelID
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.notes = notes
        self.budget = budget
        self.discount = discount
        self.nights = nights
        self.rating = rating
        self.isFavorite = isFavorite
        self.tags = tags
        self.status = status
        self.id = id
        self.place = place
        self.float = 0
        self.unsigned = 0
        self.level = .low
        self.scratch = ""
    }

    /// The row as a store hands it to `QueryEvaluator`.
    var evaluator: QueryEvaluator {
        QueryEvaluator(identifier: persistentModelID) { path in
            switch path.components {
            case ["name"]: self.name.queryValue
            case ["destination"]: self.destination.queryValue
            case ["startDate"]: self.startDate.queryValue
            case ["notes"]: self.notes.queryValue
            case ["budget"]: self.budget.queryValue
            case ["discount"]: self.discount.queryValue
            case ["nights"]: self.nights.queryValue
            case ["rating"]: self.rating.queryValue
            case ["isFavorite"]: self.isFavorite.queryValue
            case ["tags"]: self.tags.queryValue
            case ["status"]: self.status.rawValue.queryValue
            case ["id"]: self.id.queryValue
            case ["place"]: self.place?.persistentModelID.queryValue ?? .null
            case ["place", "name"]: self.place?.name.queryValue ?? .null
            default: throw QueryEvaluationError(.typeMismatch, "no property \(path)")
            }
        }
    }
}

enum Fixtures {
    static let storeIdentifier = "S"

    static func tripID(_ key: Int64, store: String = storeIdentifier) -> PersistentIdentifier {
        try! PersistentIdentifier.identifier(for: store, entityName: "TripRow", primaryKey: key)
    }

    static func placeID(_ key: Int64) -> PersistentIdentifier {
        try! PersistentIdentifier.identifier(for: storeIdentifier, entityName: "PlaceRow", primaryKey: key)
    }

    static func uuid(_ n: UInt8) -> UUID {
        UUID(uuid: (n, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, n))
    }

    /// What a schema would say about `TripRow` and `PlaceRow`.
    static let translator = QueryTranslator { keyPath in
        switch keyPath {
        case \TripRow.persistentModelID, \PlaceRow.persistentModelID: .identifier
        case \TripRow.name: .attribute(name: "name", kind: .string, isOptional: false)
        case \TripRow.destination: .attribute(name: "destination", kind: .string, isOptional: false)
        case \TripRow.startDate: .attribute(name: "startDate", kind: .date, isOptional: false)
        case \TripRow.notes: .attribute(name: "notes", kind: .string, isOptional: true)
        case \TripRow.budget: .attribute(name: "budget", kind: .double, isOptional: false)
        case \TripRow.discount: .attribute(name: "discount", kind: .double, isOptional: true)
        case \TripRow.nights: .attribute(name: "nights", kind: .integer, isOptional: false)
        case \TripRow.rating: .attribute(name: "rating", kind: .integer, isOptional: true)
        case \TripRow.isFavorite: .attribute(name: "isFavorite", kind: .bool, isOptional: false)
        case \TripRow.tags: .attribute(name: "tags", kind: .array, isOptional: false)
        case \TripRow.status: .attribute(name: "status", kind: .string, isOptional: false)
        case \TripRow.id: .attribute(name: "id", kind: .uuid, isOptional: false)
        case \TripRow.float: .attribute(name: "float", kind: .double, isOptional: false)
        case \TripRow.unsigned: .attribute(name: "unsigned", kind: .integer, isOptional: false)
        case \TripRow.level: .attribute(name: "level", kind: .integer, isOptional: false)
        case \TripRow.place: .relationship(name: "place", destination: "PlaceRow", isToMany: false, isOptional: true)
        case \TripRow.places: .relationship(name: "places", destination: "PlaceRow", isToMany: true, isOptional: false)
        case \PlaceRow.name: .attribute(name: "name", kind: .string, isOptional: false)
        default: nil
        }
    }

    /// Columns of table alias `t`; paths through relationships need a join, which it refuses.
    static var renderer: SQLiteQueryRenderer {
        SQLiteQueryRenderer(
            column: { path in
                guard path.components.count == 1 else {
                    throw QueryTranslationError(.unsupportedPredicate, "\(path) needs a join")
                }
                return "\"t\".\"\(path.components[0])\""
            },
            identifierColumn: #""t"."Z_PK""#,
            primaryKey: { id in
                guard id.storeIdentifier == storeIdentifier, id.entityName == "TripRow" else { return nil }
                return Int64(id.primaryKey.description).map(QueryValue.integer)
            }
        )
    }

    static func render(_ predicate: Predicate<TripRow>) throws -> SQLFragment {
        try renderer.render(translator.translate(predicate))
    }
}

/// Shorthands for expected trees.
extension QueryExpression {
    static func attribute(_ name: String) -> QueryExpression { .property([name]) }
    static func string(_ value: String) -> QueryExpression { .value(.string(value)) }
    static func integer(_ value: Int64) -> QueryExpression { .value(.integer(value)) }
    static func double(_ value: Double) -> QueryExpression { .value(.double(value)) }
    static func bool(_ value: Bool) -> QueryExpression { .value(.bool(value)) }
}

extension QueryValueType {
    static let string = QueryValueType(.string)
    static let optionalString = QueryValueType(.string, isOptional: true)
    static let integer = QueryValueType(.integer)
    static let optionalInteger = QueryValueType(.integer, isOptional: true)
    static let double = QueryValueType(.double)
    static let bool = QueryValueType(.bool)
    static let optionalBool = QueryValueType(.bool, isOptional: true)
}
