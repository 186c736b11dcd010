import GRDB
import OpenSwiftDataCore

/// The `SELECT`s a store has rendered, by query shape (``DataStoreQueryShape``): a fetch whose
/// shape was seen binds its constants into the SQL already made, instead of rendering the same few
/// shapes over and over.
///
/// A plan is kept only when rendering read nothing from the database: a query naming a column
/// that can hold NaN depends on the store's NaN flags, which a save can change. One that compares
/// text columns is kept with their names, and checked against the text flags before each use.
final class SQLiteSelectPlans: Sendable {
    /// What the statement selects: whole models (the layout's select list) or their keys.
    enum Columns: Hashable, Sendable { case models, keys }

    /// A class, so that the store's one connection keeps the plan's prepared statement in it:
    /// finding it again in GRDB's statement cache hashes the whole SQL.
    final class Plan: @unchecked Sendable {
        private let shaped: ShapedStatement
        /// The whole statement, paging included.
        var sql: String { shaped.sql }
        /// For each argument of the filter, in order, the position of the constant it binds.
        var slots: [Int] { shaped.slots }
        /// Only read and written on GRDB's queue of the store's connection, one use at a time:
        /// hence the unchecked Sendable.
        private(set) var preparedStatement: GRDB.Statement?
        /// The text columns (`Table.column`) the SQL compares by their bytes, as unflagged
        /// (``SQLiteNaNFlags``): the plan is right only while none of them is flagged.
        var textColumns: Set<String> = []

        init(_ shaped: ShapedStatement) {
            self.shaped = shaped
        }

        /// The plan's statement on the store's connection, prepared on first use. A store has one
        /// connection and its plans are its own, so the statement is always that connection's.
        func statement(in db: Database) throws -> GRDB.Statement {
            if let preparedStatement { return preparedStatement }
            let statement = try db.makeStatement(sql: sql)
            preparedStatement = statement
            return statement
        }
    }

    private let cache = QueryShapeCache<Columns, Plan>()

    func plan(for shape: DataStoreQueryShape, columns: Columns) -> Plan? {
        cache.plan(for: shape, columns)
    }

    /// The plan for SQL rendered from `shape.query` (whose constants are their positions) with
    /// these filter arguments; nil when the SQL is not one for every query of the shape.
    package static func plan(sql: String, renderedArguments: [QueryValue], constantCount: Int) -> Plan? {
        ShapedStatement(sql: sql, renderedArguments: renderedArguments, constantCount: constantCount).map(Plan.init)
    }

    func keep(_ plan: Plan, for shape: DataStoreQueryShape, columns: Columns) {
        cache.keep(plan, for: shape, columns)
    }

    var count: Int { cache.count }
}
