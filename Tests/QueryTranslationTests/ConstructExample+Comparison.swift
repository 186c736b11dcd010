import Foundation
import OpenSwiftData

extension ConstructExample {
    static var comparisons: [ConstructExample] {
        let date = Date(timeIntervalSinceReferenceDate: 86_400)
        let booked = Status.booked
        let id = Fixtures.uuid(7)
        return [
            ConstructExample("equal", #Predicate { $0.destination == "Paris" },
                             tree: .comparison(.attribute("destination"), .equal, .string("Paris"), type: .string),
                             sql: #"("t"."destination" = ?)"#, arguments: [.string("Paris")]),
            ConstructExample("not equal", #Predicate { $0.destination != "Paris" },
                             tree: .comparison(.attribute("destination"), .notEqual, .string("Paris"), type: .string),
                             sql: #"("t"."destination" <> ?)"#, arguments: [.string("Paris")]),
            ConstructExample("less than", #Predicate { $0.nights < 3 },
                             tree: .comparison(.attribute("nights"), .lessThan, .integer(3), type: .integer),
                             sql: #"("t"."nights" < ?)"#, arguments: [.integer(3)]),
            ConstructExample("less than or equal", #Predicate { $0.budget <= 99.5 },
                             tree: .comparison(.attribute("budget"), .lessThanOrEqual, .double(99.5), type: .double),
                             sql: #"("t"."budget" <= ?)"#, arguments: [.double(99.5)]),
            ConstructExample("greater than", #Predicate { $0.nights > 3 },
                             tree: .comparison(.attribute("nights"), .greaterThan, .integer(3), type: .integer),
                             sql: #"("t"."nights" > ?)"#, arguments: [.integer(3)]),
            ConstructExample("greater than or equal on dates", #Predicate { $0.startDate >= date },
                             tree: .comparison(.attribute("startDate"), .greaterThanOrEqual, .value(.date(date)), type: QueryValueType(.date)),
                             sql: #"("t"."startDate" >= ?)"#, arguments: [.date(date)]),
            ConstructExample("optional equal", #Predicate { $0.notes == "x" },
                             tree: .comparison(.attribute("notes"), .equal, .string("x"), type: .optionalString),
                             sql: #"("t"."notes" IS ?)"#, arguments: [.string("x")]),
            ConstructExample("optional not equal", #Predicate { $0.notes != "x" },
                             tree: .comparison(.attribute("notes"), .notEqual, .string("x"), type: .optionalString),
                             sql: #"("t"."notes" IS NOT ?)"#, arguments: [.string("x")]),
            ConstructExample("equal to nil", #Predicate { $0.notes == nil },
                             tree: .comparison(.attribute("notes"), .equal, .value(.null), type: .optionalString),
                             sql: #"("t"."notes" IS NULL)"#),
            ConstructExample("not equal to nil", #Predicate { $0.notes != nil },
                             tree: .comparison(.attribute("notes"), .notEqual, .value(.null), type: .optionalString),
                             sql: #"("t"."notes" IS NOT NULL)"#),
            ConstructExample("enumeration by raw value", #Predicate { $0.status == booked },
                             tree: .comparison(.attribute("status"), .equal, .string("booked"), type: .string),
                             sql: #"("t"."status" = ?)"#, arguments: [.string("booked")]),
            ConstructExample("UUID", #Predicate { $0.id == id },
                             tree: .comparison(.attribute("id"), .equal, .value(.uuid(id)), type: QueryValueType(.uuid)),
                             sql: #"("t"."id" = ?)"#, arguments: [.uuid(id)]),
            ConstructExample("Bool key path alone", #Predicate { $0.isFavorite },
                             tree: .attribute("isFavorite"),
                             sql: #""t"."isFavorite""#),
            ConstructExample("Bool compared", #Predicate { $0.isFavorite == true },
                             tree: .comparison(.attribute("isFavorite"), .equal, .bool(true), type: .bool),
                             sql: #"("t"."isFavorite" = ?)"#, arguments: [.bool(true)]),
        ]
    }

    static var logic: [ConstructExample] {
        [
            ConstructExample("and", #Predicate { $0.isFavorite && $0.nights > 2 },
                             tree: .and(.attribute("isFavorite"), .comparison(.attribute("nights"), .greaterThan, .integer(2), type: .integer)),
                             sql: #"("t"."isFavorite" AND ("t"."nights" > ?))"#, arguments: [.integer(2)]),
            ConstructExample("or", #Predicate { $0.isFavorite || $0.nights > 2 },
                             tree: .or(.attribute("isFavorite"), .comparison(.attribute("nights"), .greaterThan, .integer(2), type: .integer)),
                             sql: #"("t"."isFavorite" OR ("t"."nights" > ?))"#, arguments: [.integer(2)]),
            ConstructExample("not of a Bool", #Predicate { !$0.isFavorite },
                             tree: .not(.attribute("isFavorite")),
                             sql: #"(NOT "t"."isFavorite")"#),
            // Swift: !(nil == 5) is true. SQL NOT (NULL = 5) would be NULL; IS keeps it two-valued.
            ConstructExample("not of an optional comparison", #Predicate { !($0.rating == 5) },
                             tree: .not(.comparison(.attribute("rating"), .equal, .integer(5), type: .optionalInteger)),
                             sql: #"(NOT ("t"."rating" IS ?))"#, arguments: [.integer(5)]),
            ConstructExample("ternary", #Predicate { $0.isFavorite ? $0.nights > 1 : $0.nights > 5 },
                             tree: .conditional(.attribute("isFavorite"),
                                                then: .comparison(.attribute("nights"), .greaterThan, .integer(1), type: .integer),
                                                else: .comparison(.attribute("nights"), .greaterThan, .integer(5), type: .integer)),
                             sql: #"(CASE WHEN "t"."isFavorite" THEN ("t"."nights" > ?) ELSE ("t"."nights" > ?) END)"#,
                             arguments: [.integer(1), .integer(5)]),
        ]
    }

    static var arithmetic: [ConstructExample] {
        [
            ConstructExample("addition", #Predicate { $0.nights + 2 > 5 },
                             tree: .comparison(.arithmetic(.attribute("nights"), .add, .integer(2)), .greaterThan, .integer(5), type: .integer),
                             sql: #"(("t"."nights" + ?) > ?)"#, arguments: [.integer(2), .integer(5)]),
            ConstructExample("multiplication and subtraction", #Predicate { $0.budget * 2 - 10 < 100 },
                             tree: .comparison(.arithmetic(.arithmetic(.attribute("budget"), .multiply, .double(2)), .subtract, .double(10)),
                                               .lessThan, .double(100), type: .double),
                             sql: #"((("t"."budget" * ?) - ?) < ?)"#, arguments: [.double(2), .double(10), .double(100)]),
            ConstructExample("integer division", #Predicate { $0.nights / 2 == 3 },
                             tree: .comparison(.arithmetic(.attribute("nights"), .integerDivide, .integer(2)), .equal, .integer(3), type: .integer),
                             sql: #"(("t"."nights" / ?) = ?)"#, arguments: [.integer(2), .integer(3)]),
            ConstructExample("floating-point division", #Predicate { $0.budget / 4 > 10 },
                             tree: .comparison(.arithmetic(.attribute("budget"), .floatDivide, .double(4)), .greaterThan, .double(10), type: .double),
                             sql: #"((CAST("t"."budget" AS REAL) / ?) > ?)"#, arguments: [.double(4), .double(10)]),
            ConstructExample("remainder", #Predicate { $0.nights % 2 == 0 },
                             tree: .comparison(.arithmetic(.attribute("nights"), .remainder, .integer(2)), .equal, .integer(0), type: .integer),
                             sql: #"(("t"."nights" % ?) = ?)"#, arguments: [.integer(2), .integer(0)]),
            ConstructExample("unary minus", #Predicate { -$0.budget < 0 },
                             tree: .comparison(.negate(.attribute("budget")), .lessThan, .double(0), type: .double),
                             sql: #"((-"t"."budget") < ?)"#, arguments: [.double(0)]),
        ]
    }
}
