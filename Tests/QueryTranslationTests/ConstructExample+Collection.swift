import Foundation
import OpenSwiftData

extension ConstructExample {
    static var collections: [ConstructExample] {
        let names = ["Paris", "Rome"]
        let oslo: Set = ["Oslo"]
        let notes: [String?] = ["a", nil]
        let statuses = [Status.booked, .done]
        return [
            ConstructExample("collection attribute contains", #Predicate { $0.tags.contains("beach") },
                             tree: .collectionContains(.attribute("tags"), element: .string("beach"), type: .string),
                             sql: #"EXISTS (SELECT 1 FROM json_each("t"."tags") WHERE value = ?)"#, arguments: [.string("beach")]),
            ConstructExample("contains(where:)", #Predicate { $0.tags.contains { $0.starts(with: "b") } },
                             tree: .collectionAny(.attribute("tags"), variable: 1, test: .startsWith(.variable(1), prefix: .string("b"))),
                             sql: #"EXISTS (SELECT 1 FROM json_each("t"."tags") AS j1 WHERE osd_starts_with(j1.value, ?))"#,
                             arguments: [.string("b")]),
            ConstructExample("allSatisfy", #Predicate { $0.tags.allSatisfy { $0 != "x" } },
                             tree: .collectionAll(.attribute("tags"), variable: 1, test: .comparison(.variable(1), .notEqual, .string("x"), type: .string)),
                             sql: #"NOT EXISTS (SELECT 1 FROM json_each("t"."tags") AS j1 WHERE NOT COALESCE((j1.value <> ?), 0))"#,
                             arguments: [.string("x")]),
            ConstructExample("collection isEmpty", #Predicate { $0.tags.isEmpty },
                             tree: .isEmpty(.attribute("tags"), of: .array),
                             sql: #"(json_array_length("t"."tags") = 0)"#),
            ConstructExample("collection count", #Predicate { $0.tags.count >= 2 },
                             tree: .comparison(.count(.attribute("tags"), of: .array), .greaterThanOrEqual, .integer(2), type: .integer),
                             sql: #"(json_array_length("t"."tags") >= ?)"#, arguments: [.integer(2)]),
            ConstructExample("captured array contains", #Predicate { names.contains($0.destination) },
                             tree: .in(.attribute("destination"), [.string("Paris"), .string("Rome")], type: .string),
                             sql: #"("t"."destination" IN (?, ?))"#, arguments: [.string("Paris"), .string("Rome")]),
            ConstructExample("captured set contains", #Predicate { oslo.contains($0.destination) },
                             tree: .in(.attribute("destination"), [.string("Oslo")], type: .string),
                             sql: #"("t"."destination" IN (?))"#, arguments: [.string("Oslo")]),
            ConstructExample("captured list with nil", #Predicate { notes.contains($0.notes) },
                             tree: .in(.attribute("notes"), [.string("a"), .null], type: .optionalString),
                             sql: #"("t"."notes" IS NULL OR "t"."notes" IN (?))"#, arguments: [.string("a")]),
            ConstructExample("captured enumerations", #Predicate { statuses.contains($0.status) },
                             tree: .in(.attribute("status"), [.string("booked"), .string("done")], type: .string),
                             sql: #"("t"."status" IN (?, ?))"#, arguments: [.string("booked"), .string("done")]),
        ]
    }

    static var identities: [ConstructExample] {
        let five = Fixtures.tripID(5)
        let ids = [Fixtures.tripID(3), Fixtures.tripID(4, store: "Other")]
        let start = Date(timeIntervalSinceReferenceDate: 0)
        let end = Date(timeIntervalSinceReferenceDate: 86_400)
        let week = start...end
        return [
            ConstructExample("persistentModelID equal", #Predicate { $0.persistentModelID == five },
                             tree: .comparison(.identifier, .equal, .value(.identifier(five)), type: QueryValueType(.identifier)),
                             sql: #"("t"."Z_PK" = ?)"#, arguments: [.integer(5)]),
            // The identifier of another store matches no row, so it is not bound.
            ConstructExample("persistentModelID in captured identifiers", #Predicate { ids.contains($0.persistentModelID) },
                             tree: .in(.identifier, ids.map(QueryValue.identifier), type: QueryValueType(.identifier)),
                             sql: #"("t"."Z_PK" IN (?))"#, arguments: [.integer(3)]),
            ConstructExample("to-one relationship is nil", #Predicate { $0.place == nil },
                             tree: .comparison(.attribute("place"), .equal, .value(.null), type: QueryValueType(.identifier, isOptional: true)),
                             sql: #"("t"."place" IS NULL)"#),
            ConstructExample("captured closed range", #Predicate { week.contains($0.startDate) },
                             tree: .and(.comparison(.value(.date(start)), .lessThanOrEqual, .attribute("startDate"), type: QueryValueType(.date)),
                                        .comparison(.attribute("startDate"), .lessThanOrEqual, .value(.date(end)), type: QueryValueType(.date))),
                             sql: #"((? <= "t"."startDate") AND ("t"."startDate" <= ?))"#, arguments: [.date(start), .date(end)]),
        ]
    }
}
