import Foundation
import OpenSwiftData
import Testing

/// The statement nodes in SQLite, PostgreSQL, a deliberately odd dialect and one of defaults
/// alone: exact text, and the bound values in placeholder order.
@Suite struct StatementRenderingTests {
    static let dialects: [any SQLDialect] = [SQLiteDialect(), PostgreSQLDialect(), OddDialect(), PlainDialect()]

    private func render(_ node: some SQLExpression, _ dialect: any SQLDialect) throws -> SQLStatementText {
        try SQLSerializer.render(node, in: dialect)
    }

    @Test(arguments: zip(dialects, [
        #"INSERT INTO "Trip" ("Z_PK", "name") VALUES (?, ?) ON CONFLICT("Z_PK") DO UPDATE SET "name" = excluded."name""#,
        #"INSERT INTO "Trip" ("Z_PK", "name") VALUES ($1, $2) ON CONFLICT("Z_PK") DO UPDATE SET "name" = excluded."name""#,
        "INSERT INTO `Trip` (`Z_PK`, `name`) VALUES (:p1, :p2) ON DUPLICATE KEY UPDATE `name` = VALUES(`name`)",
        #"INSERT INTO "Trip" ("Z_PK", "name") VALUES (@1, @2) ON CONFLICT("Z_PK") DO UPDATE SET "name" = excluded."name""#,
    ]))
    func anUpsertOfParametersBindsNothingUntilItRuns(dialect: any SQLDialect, expected: String) throws {
        let insert = SQLInsert(table: "Trip", columns: ["Z_PK", "name"], rows: [[SQLParameter(), SQLParameter()]],
                               conflict: .update(key: ["Z_PK"], columns: ["name"]))
        #expect(try render(insert, dialect) == SQLStatementText(sql: expected))
    }

    @Test(arguments: zip(dialects, [
        #"INSERT INTO "osd_Trip.travelers" ("owner", "member") VALUES (?, ?), (?, ?) ON CONFLICT DO NOTHING"#,
        #"INSERT INTO "osd_Trip.travelers" ("owner", "member") VALUES ($1, $2), ($3, $4) ON CONFLICT DO NOTHING"#,
        "INSERT IGNORE INTO `osd_Trip.travelers` (`owner`, `member`) VALUES (:p1, :p2), (:p3, :p4)",
        #"INSERT INTO "osd_Trip.travelers" ("owner", "member") VALUES (@1, @2), (@3, @4) ON CONFLICT DO NOTHING"#,
    ]))
    func aMultiRowInsertNumbersItsValuesInOrder(dialect: any SQLDialect, expected: String) throws {
        let pairs: [[any SQLExpression]] = [[SQLBind(.integer(1)), SQLBind(.integer(2))], [SQLBind(.integer(1)), SQLBind(.integer(3))]]
        let insert = SQLInsert(table: "osd_Trip.travelers", columns: ["owner", "member"], rows: pairs, conflict: .ignore)
        #expect(try render(insert, dialect) == SQLStatementText(sql: expected, binds: [.integer(1), .integer(2), .integer(1), .integer(3)]))
    }

    @Test func anUpsertWithNothingToUpdateLeavesTheRowAsItIs() throws {
        let insert = SQLInsert(table: "T", columns: ["Z_PK"], rows: [[SQLParameter()]], conflict: .update(key: ["Z_PK"], columns: []))
        #expect(try render(insert, SQLiteDialect()).sql == #"INSERT INTO "T" ("Z_PK") VALUES (?) ON CONFLICT("Z_PK") DO NOTHING"#)
        #expect(try render(insert, OddDialect()).sql == "INSERT INTO `T` (`Z_PK`) VALUES (:p1) ON DUPLICATE KEY UPDATE `Z_PK` = `Z_PK`")
    }

    @Test func returningRendersWhereTheDialectHasItAndIsRefusedElsewhere() throws {
        let update = SQLUpdate(table: "Trip", set: [SQLAssignment("name", SQLBind(.text("Oslo")))],
                               where: SQLBinary(SQLColumn("Z_PK"), "=", SQLBind(.integer(7))), returning: [SQLColumn("Z_PK")])
        #expect(try render(update, SQLiteDialect()) == SQLStatementText(sql: #"UPDATE "Trip" SET "name" = ? WHERE "Z_PK" = ? RETURNING "Z_PK""#,
                                                                         binds: [.text("Oslo"), .integer(7)]))
        #expect(try render(update, PostgreSQLDialect()).sql == #"UPDATE "Trip" SET "name" = $1 WHERE "Z_PK" = $2 RETURNING "Z_PK""#)
        #expect(throws: SQLRenderError.self) { try render(update, OddDialect()) }
        #expect(throws: SQLRenderError.self) { try render(SQLDelete(table: "Trip", returning: [SQLColumn("Z_PK")]), PlainDialect()) }
    }

    @Test(arguments: zip(dialects, [
        SQLStatementText(sql: #"DELETE FROM "Trip" WHERE "Z_PK" IN (SELECT value FROM json_each(?))"#, binds: [.integers([3, 4, 5])]),
        SQLStatementText(sql: #"DELETE FROM "Trip" WHERE "Z_PK" = ANY($1)"#, binds: [.integers([3, 4, 5])]),
        SQLStatementText(sql: "DELETE FROM `Trip` WHERE `Z_PK` MEMBER OF (:p1)", binds: [.integers([3, 4, 5])]),
        SQLStatementText(sql: #"DELETE FROM "Trip" WHERE "Z_PK" IN (@1, @2, @3)"#, binds: [.integer(3), .integer(4), .integer(5)]),
    ]))
    func aKeyListIsOneValueWhereTheDialectBindsLists(dialect: any SQLDialect, expected: SQLStatementText) throws {
        let delete = SQLDelete(table: "Trip", where: SQLListMembership(SQLColumn("Z_PK"), .integers([3, 4, 5])))
        #expect(try render(delete, dialect) == expected)
    }

    @Test(arguments: zip(dialects, [
        (SQLStatementText(sql: #"SELECT "Trip"."Z_PK" FROM "Trip" WHERE "Trip"."name" = ? ORDER BY "Trip"."Z_PK" LIMIT ? OFFSET ?"#, binds: [.text("Oslo"), .integer(10), .integer(20)]),
         #"SELECT "Trip"."Z_PK" FROM "Trip" LIMIT -1 OFFSET ?"#),
        (SQLStatementText(sql: #"SELECT "Trip"."Z_PK" FROM "Trip" WHERE "Trip"."name" = $1 ORDER BY "Trip"."Z_PK" LIMIT $2 OFFSET $3"#, binds: [.text("Oslo"), .integer(10), .integer(20)]),
         #"SELECT "Trip"."Z_PK" FROM "Trip" OFFSET $1"#),
        (SQLStatementText(sql: "SELECT `Trip`.`Z_PK` FROM `Trip` WHERE `Trip`.`name` = :p1 ORDER BY `Trip`.`Z_PK` LIMIT :p2, :p3", binds: [.text("Oslo"), .integer(20), .integer(10)]),
         "SELECT `Trip`.`Z_PK` FROM `Trip` OFFSET :p1 ROWS"),
        (SQLStatementText(sql: #"SELECT "Trip"."Z_PK" FROM "Trip" WHERE "Trip"."name" = @1 ORDER BY "Trip"."Z_PK" LIMIT @2 OFFSET @3"#, binds: [.text("Oslo"), .integer(10), .integer(20)]),
         #"SELECT "Trip"."Z_PK" FROM "Trip" OFFSET @1"#),
    ]))
    func pagingIsBoundInTheOrderTheDialectWritesIt(dialect: any SQLDialect, expected: (paged: SQLStatementText, offsetAlone: String)) throws {
        let key = SQLColumn("Z_PK", table: "Trip")
        let select = SQLSelect(columns: [key], from: "Trip", where: SQLBinary(SQLColumn("name", table: "Trip"), "=", SQLBind(.text("Oslo"))),
                               orderBy: [key], limit: 10, offset: 20)
        #expect(try render(select, dialect) == expected.paged)
        #expect(try render(SQLSelect(columns: [key], from: "Trip", offset: 5), dialect) == SQLStatementText(sql: expected.offsetAlone, binds: [.integer(5)]))
    }

    @Test(arguments: zip(dialects, [
        #"INSERT INTO "osd_history_changes" ("transactionNumber", "key") SELECT ?, "t"."Z_PK" FROM "Trip" AS "t" WHERE ("t"."name" = ?)"#,
        #"INSERT INTO "osd_history_changes" ("transactionNumber", "key") SELECT $1, "t"."Z_PK" FROM "Trip" AS "t" WHERE ("t"."name" = $2)"#,
        "INSERT INTO `osd_history_changes` (`transactionNumber`, `key`) SELECT :p1, `t`.`Z_PK` FROM `Trip` AS `t` WHERE (`t`.`name` = :p2)",
        #"INSERT INTO "osd_history_changes" ("transactionNumber", "key") SELECT @1, "t"."Z_PK" FROM "Trip" AS "t" WHERE ("t"."name" = @2)"#,
    ]))
    func aRenderedConditionContinuesTheStatementsNumbering(dialect: any SQLDialect, expected: String) throws {
        let renderer = SQLiteQueryRenderer(column: { path in "\(dialect.quotedIdentifier("t")).\(dialect.quotedIdentifier(path.components[0]))" },
                                           identifierColumn: "t.Z_PK", primaryKey: { _ in nil }, dialect: dialect)
        let filter = QueryExpression.comparison(.attribute("name"), .equal, .string("Oslo"), type: .string)
        let condition = SQLQueryCondition(render: { try renderer.render(filter, firstPlaceholder: $0) }, bind: { value in
            guard case .string(let text) = value else { return .null }
            return .text(text)
        })
        let select = SQLSelect(columns: [SQLBind(.integer(9)), SQLColumn("Z_PK", table: "t")], from: "Trip", as: "t", where: condition)
        let insert = SQLInsert(table: "osd_history_changes", columns: ["transactionNumber", "key"], select: select)
        #expect(try render(insert, dialect) == SQLStatementText(sql: expected, binds: [.integer(9), .text("Oslo")]))
    }

    @Test func theQueryRendererWritesTheOddDialectsSpellings() throws {
        let renderer = SQLiteQueryRenderer(column: { "`t`.`\($0.components[0])`" }, identifierColumn: "`t`.`Z_PK`", primaryKey: { _ in nil },
                                           dialect: OddDialect())
        func render(_ predicate: Predicate<TripRow>) throws -> SQLFragment { try renderer.render(Fixtures.translator.translate(predicate)) }
        #expect(try render(#Predicate { $0.notes == "x" }) == SQLFragment("(`t`.`notes` <=> :p1)", arguments: [.string("x")]))
        let none: [String] = []
        #expect(try render(#Predicate { none.contains($0.name) }).sql == "NO")
        let cities = ["Oslo", "Rome", "Lima"]
        #expect(try render(#Predicate { cities.contains($0.destination) })
                == SQLFragment("(`t`.`destination` MEMBER OF (:p1))", arguments: [.array(cities.map(QueryValue.string))]))
        let paged = DataStoreQuery(entityName: "TripRow", fetchLimit: 3, fetchOffset: 6)
        #expect(try renderer.render(paged) == SQLFragment("ORDER BY `t`.`Z_PK` LIMIT :p1, :p2", arguments: [.integer(6), .integer(3)]))
        #expect(try renderer.render(DataStoreQuery(entityName: "TripRow", sortBy: [QuerySortKey(path: ["name"], ascending: true, kind: .string)])).sql
                == "ORDER BY `t`.`name` ASC NULLS FIRST, `t`.`Z_PK`")
    }

    @Test func whatADialectLacksIsRefusedSoTheContextEvaluatesIt() throws {
        let renderer = SQLiteQueryRenderer(column: { "t.\($0.components[0])" }, identifierColumn: "t.Z_PK", primaryKey: { _ in nil },
                                           dialect: PlainDialect())
        func render(_ predicate: Predicate<TripRow>) throws -> SQLFragment { try renderer.render(Fixtures.translator.translate(predicate)) }
        #expect(throws: QueryTranslationError.self) { try render(#Predicate { $0.name.contains("a") }) }
        #expect(throws: QueryTranslationError.self) { try render(#Predicate { $0.tags.contains("a") }) }
        #expect(throws: QueryTranslationError.self) { try render(#Predicate { $0.tags.count > 1 }) }
        #expect(throws: QueryTranslationError.self) { try render(#Predicate { $0.budget / 2 > 1 }) }
        #expect(try render(#Predicate { $0.nights > 2 && $0.name == "a" }) == SQLFragment("((t.nights > @1) AND (t.name = @2))", arguments: [.integer(2), .string("a")]))
    }
}
