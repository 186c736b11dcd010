import Foundation
import OpenSwiftData

extension ConstructExample {
    static var optionals: [ConstructExample] {
        let ratingIsNil = QueryExpression.comparison(.attribute("rating"), .equal, .value(.null), type: .optionalInteger)
        let notesIsNil = QueryExpression.comparison(.attribute("notes"), .equal, .value(.null), type: .optionalString)
        return [
            ConstructExample("nil-coalescing", #Predicate { ($0.rating ?? 0) > 3 },
                             tree: .comparison(.coalesce(.attribute("rating"), default: .integer(0)), .greaterThan, .integer(3), type: .integer),
                             sql: #"(COALESCE("t"."rating", ?) > ?)"#, arguments: [.integer(0), .integer(3)]),
            ConstructExample("force unwrap", #Predicate { $0.rating! > 3 },
                             tree: .comparison(.forceUnwrap(.attribute("rating")), .greaterThan, .integer(3), type: .integer),
                             sql: #"("t"."rating" > ?)"#, arguments: [.integer(3)]),
            ConstructExample("optional chaining", #Predicate { $0.notes?.isEmpty == false },
                             tree: .comparison(.conditional(notesIsNil, then: .value(.null), else: .isEmpty(.forceUnwrap(.attribute("notes")), of: .string)),
                                               .equal, .bool(false), type: .optionalBool),
                             sql: #"((CASE WHEN ("t"."notes" IS NULL) THEN NULL ELSE (length("t"."notes") = 0) END) IS ?)"#,
                             arguments: [.bool(false)]),
            ConstructExample("flatMap", #Predicate { $0.rating.flatMap { $0 * 2 } == 6 },
                             tree: .comparison(.conditional(ratingIsNil, then: .value(.null), else: .arithmetic(.forceUnwrap(.attribute("rating")), .multiply, .integer(2))),
                                               .equal, .integer(6), type: .optionalInteger),
                             sql: #"((CASE WHEN ("t"."rating" IS NULL) THEN NULL ELSE ("t"."rating" * ?) END) IS ?)"#,
                             arguments: [.integer(2), .integer(6)]),
        ]
    }

    static var strings: [ConstructExample] {
        let ascending = ComparisonResult.orderedAscending
        let same = ComparisonResult.orderedSame
        return [
            ConstructExample("contains", #Predicate { $0.name.contains("par") },
                             tree: .stringContains(.attribute("name"), .string("par"), options: []),
                             sql: #"osd_contains("t"."name", ?, 0)"#, arguments: [.string("par")]),
            ConstructExample("starts(with:)", #Predicate { $0.name.starts(with: "Pa") },
                             tree: .startsWith(.attribute("name"), prefix: .string("Pa")),
                             sql: #"osd_starts_with("t"."name", ?)"#, arguments: [.string("Pa")]),
            ConstructExample("localizedStandardContains", #Predicate { $0.name.localizedStandardContains("paris") },
                             tree: .stringContains(.attribute("name"), .string("paris"), options: [.caseInsensitive, .diacriticInsensitive, .localized]),
                             sql: #"osd_contains("t"."name", ?, 7)"#, arguments: [.string("paris")]),
            ConstructExample("caseInsensitiveCompare", #Predicate { $0.name.caseInsensitiveCompare("m") == ascending },
                             tree: .comparison(.stringCompare(.attribute("name"), .string("m"), options: .caseInsensitive), .equal, .integer(-1), type: .integer),
                             sql: #"(osd_compare("t"."name", ?, 1) = ?)"#, arguments: [.string("m"), .integer(-1)]),
            ConstructExample("localizedCompare", #Predicate { $0.name.localizedCompare("m") != same },
                             tree: .comparison(.stringCompare(.attribute("name"), .string("m"), options: .localized), .notEqual, .integer(0), type: .integer),
                             sql: #"(osd_compare("t"."name", ?, 4) <> ?)"#, arguments: [.string("m"), .integer(0)]),
            ConstructExample("string count", #Predicate { $0.name.count > 3 },
                             tree: .comparison(.count(.attribute("name"), of: .string), .greaterThan, .integer(3), type: .integer),
                             sql: #"(osd_character_count("t"."name") > ?)"#, arguments: [.integer(3)]),
            ConstructExample("string isEmpty", #Predicate { $0.name.isEmpty },
                             tree: .isEmpty(.attribute("name"), of: .string),
                             sql: #"(length("t"."name") = 0)"#),
        ]
    }
}
