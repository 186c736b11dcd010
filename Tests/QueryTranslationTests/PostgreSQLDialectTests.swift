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
        #expect(fragment == SQLFragment(#"("t"."notes" IS NOT DISTINCT FROM ?)"#, arguments: [.string("x")]))
    }

    @Test func doubleComparisonTreatsNaNAsSwiftDoes() throws {
        let fragment = try render(#Predicate { $0.budget < 2.5 })
        #expect(fragment.sql == #"("t"."budget" < ? AND NOT COALESCE("t"."budget" = 'NaN'::float8, FALSE) AND NOT COALESCE(? = 'NaN'::float8, FALSE))"#)
        #expect(fragment.arguments == [.double(2.5), .double(2.5)])
    }

    @Test func stringOrderingNamesTheCCollation() throws {
        let fragment = try render(#Predicate { $0.name < "m" })
        #expect(fragment.sql == #"("t"."name" < ? COLLATE "C")"#)
    }

    @Test func pagingWithoutLimitIsOffsetAlone() throws {
        let query = DataStoreQuery(entityName: "TripRow", sortBy: [QuerySortKey(path: ["name"], ascending: false, kind: .string)], fetchOffset: 3)
        let fragment = try Self.renderer.render(query)
        #expect(fragment == SQLFragment(#"ORDER BY "t"."name" DESC NULLS LAST, "t"."Z_PK" OFFSET ?"#, arguments: [.integer(3)]))
        #expect(SQLDialect.postgreSQL.numberingPlaceholders(in: "SELECT * FROM t \(fragment.sql) LIMIT ?") == #"SELECT * FROM t ORDER BY "t"."name" DESC NULLS LAST, "t"."Z_PK" OFFSET $1 LIMIT $2"#)
    }

    @Test func constantsAndCollectionsUsePostgreSQLSpellings() throws {
        let nan = Double.nan
        #expect(try render(#Predicate { $0.budget == nan }).sql == "FALSE")
        #expect(try render(#Predicate { $0.tags.contains("a") }).sql
                == #"EXISTS (SELECT 1 FROM jsonb_array_elements_text(CAST("t"."tags" AS jsonb)) AS j(value) WHERE value = ?)"#)
        #expect(try render(#Predicate { $0.tags.count > 1 }).sql == #"(jsonb_array_length(CAST("t"."tags" AS jsonb)) > ?)"#)
    }

    @Test func whatPostgreSQLCannotComputeAsSwiftIsRefused() throws {
        #expect(throws: QueryTranslationError.self) { try render(#Predicate { $0.name.contains("a") }) }
        #expect(throws: QueryTranslationError.self) { try render(#Predicate { $0.name.count > 2 }) }
        #expect(throws: QueryTranslationError.self) { try render(#Predicate { $0.budget / 2 > 1 }) }
        #expect(throws: QueryTranslationError.self) { try render(#Predicate { $0.tags.contains { $0 == "a" } }) }
    }

    @Test func sqliteDialectKeepsQuestionMarks() {
        #expect(SQLDialect.sqlite.numberingPlaceholders(in: "a = ? AND b = ?") == "a = ? AND b = ?")
    }
}
