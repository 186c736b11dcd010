import Foundation
import OpenSwiftData
import Testing

/// The one renderer in the PostgreSQL dialect: the same tree, PostgreSQL's spellings.
@Suite struct PostgreSQLDialectTests {
    static var renderer: SQLiteQueryRenderer {
        SQLiteQueryRenderer(
            column: { path in "\"t\".\"\(path.components.joined(separator: "."))\"" },
            identifierColumn: #""t"."Z_PK""#,
            primaryKey: { _ in nil },
            dialect: .postgreSQL
        )
    }

    private func render(_ predicate: Predicate<TripRow>) throws -> SQLFragment {
        try Self.renderer.render(Fixtures.translator.translate(predicate))
    }

    @Test func optionalEqualityIsNotDistinctFrom() throws {
        let fragment = try render(#Predicate { $0.notes == "x" })
        #expect(fragment == SQLFragment(#"("t"."notes" IS NOT DISTINCT FROM $1)"#, arguments: [.string("x")]))
    }

    @Test func doubleComparisonTreatsNaNAsSwiftDoes() throws {
        let fragment = try render(#Predicate { $0.budget < 2.5 })
        #expect(fragment.sql == #"("t"."budget" < $1 AND NOT COALESCE("t"."budget" = CAST('NaN' AS double precision), FALSE) AND NOT COALESCE($2 = CAST('NaN' AS double precision), FALSE))"#)
        #expect(fragment.arguments == [.double(2.5), .double(2.5)])
    }

    @Test func stringOrderingNamesTheCCollation() throws {
        let fragment = try render(#Predicate { $0.name < "m" })
        #expect(fragment.sql == #"("t"."name" < $1 COLLATE "C")"#)
    }

    @Test func pagingWithoutLimitIsOffsetAlone() throws {
        let query = DataStoreQuery(entityName: "TripRow", sortBy: [QuerySortKey(path: ["name"], ascending: false, kind: .string)], fetchOffset: 3)
        let fragment = try Self.renderer.render(query)
        #expect(fragment == SQLFragment(#"ORDER BY "t"."name" DESC NULLS LAST, "t"."Z_PK" OFFSET $1"#, arguments: [.integer(3)]))
    }

    @Test func placeholdersAreNumberedFromTheFirstOneACallerNames() throws {
        let query = DataStoreQuery(entityName: "TripRow", filter: .comparison(.attribute("name"), .equal, .string("x"), type: .string), fetchLimit: 2, fetchOffset: 4)
        let fragment = try Self.renderer.render(query, firstPlaceholder: 3)
        #expect(fragment == SQLFragment(#"WHERE ("t"."name" = $3) ORDER BY "t"."Z_PK" LIMIT $4 OFFSET $5"#, arguments: [.string("x"), .integer(2), .integer(4)]))
    }

    @Test func constantsAndCollectionsUsePostgreSQLSpellings() throws {
        let nan = Double.nan
        #expect(try render(#Predicate { $0.budget == nan }).sql == "FALSE")
        #expect(try render(#Predicate { $0.tags.contains("a") }).sql
                == #"EXISTS (SELECT 1 FROM jsonb_array_elements_text(CAST("t"."tags" AS jsonb)) AS j(value) WHERE value = $1)"#)
        #expect(try render(#Predicate { $0.tags.count > 1 }).sql == #"(jsonb_array_length(CAST("t"."tags" AS jsonb)) > $1)"#)
    }

    @Test func whatPostgreSQLCannotComputeAsSwiftIsRefused() throws {
        #expect(throws: QueryTranslationError.self) { try render(#Predicate { $0.name.contains("a") }) }
        #expect(throws: QueryTranslationError.self) { try render(#Predicate { $0.name.count > 2 }) }
        #expect(throws: QueryTranslationError.self) { try render(#Predicate { $0.budget / 2 > 1 }) }
        #expect(throws: QueryTranslationError.self) { try render(#Predicate { $0.tags.contains { $0 == "a" } }) }
    }

    @Test func sqliteDialectKeepsQuestionMarks() throws {
        let fragment = try Fixtures.renderer.render(Fixtures.translator.translate(#Predicate<TripRow> { $0.name == "a" && $0.nights > 2 }), firstPlaceholder: 7)
        #expect(fragment.sql == #"(("t"."name" = ?) AND ("t"."nights" > ?))"#)
    }
}
