import GRDB
import Synchronization
import OpenSwiftDataCore

/// The `SELECT`s a store has rendered, by query shape (``DataStoreQueryShape``): a fetch whose
/// shape was seen binds its constants into the SQL already made, instead of rendering the same few
/// shapes over and over.
///
/// A plan is kept only when rendering read nothing from the database: a query naming a column
/// that can hold NaN depends on the store's NaN flags, which a save can change.
final class SQLiteSelectPlans: Sendable {
    /// What the statement selects: whole models (the layout's select list) or their keys.
    enum Columns: Hashable, Sendable { case models, keys }

    /// A class, so that the store's one connection keeps the plan's prepared statement in it:
    /// finding it again in GRDB's statement cache hashes the whole SQL.
    final class Plan: @unchecked Sendable {
        /// The whole statement, paging included.
        let sql: String
        /// For each argument of the filter, in order, the position of the constant it binds.
        let slots: [Int]
        /// Only read and written under the store's ``DefaultStore/access`` lock, one use of the
        /// connection at a time: hence the unchecked Sendable.
        private(set) var preparedStatement: GRDB.Statement?

        init(sql: String, slots: [Int]) {
            self.sql = sql
            self.slots = slots
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

    private struct Key: Hashable {
        let shape: DataStoreQueryShape
        let columns: Columns

        static func == (lhs: Key, rhs: Key) -> Bool { lhs.columns == rhs.columns && lhs.shape == rhs.shape }
    }

    /// Enough for every shape a program's code spells; a program that builds predicates on the
    /// fly starts over rather than growing without bound.
    static let capacity = 256
    /// The shapes used last, compared before the dictionary is asked: hashing a shape goes through
    /// every string in it, where comparing one with the
    /// shape of the same code's last query finds the same strings and stops at their identity.
    static let recentCount = 4

    /// A class, so that comparing a recent entry reads its key in place: copying a key out of an
    /// array retains and releases everything in its query.
    private final class Recent {
        let key: Key
        let plan: Plan

        init(_ key: Key, _ plan: Plan) {
            self.key = key
            self.plan = plan
        }
    }

    private struct State {
        var plans: [Key: Plan] = [:]
        /// Most recent first (a hit moves to the front); each entry is also in `plans`.
        var recent: [Recent] = []

        mutating func remember(_ key: Key, _ plan: Plan) {
            recent.insert(Recent(key, plan), at: 0)
            if recent.count > SQLiteSelectPlans.recentCount { recent.removeLast() }
        }
    }

    private let state = Mutex(State())

    func plan(for shape: DataStoreQueryShape, columns: Columns) -> Plan? {
        state.withLock { state in
            if let index = state.recent.firstIndex(where: { $0.key.columns == columns && $0.key.shape == shape }) {
                if index > 0 { state.recent.swapAt(index, 0) }
                return state.recent[0].plan
            }
            let key = Key(shape: shape, columns: columns)
            guard let plan = state.plans[key] else { return nil }
            state.remember(key, plan)
            return plan
        }
    }

    /// The plan for SQL rendered from `shape.query` (whose constants are their positions) with
    /// these filter arguments; nil when an argument is not a lone position (a long `in` list
    /// binds them all as one JSON array), so the SQL is not one for every query of the shape.
    package static func plan(sql: String, renderedArguments: [QueryValue], constantCount: Int) -> Plan? {
        var slots: [Int] = []
        slots.reserveCapacity(renderedArguments.count)
        for argument in renderedArguments {
            guard case .integer(let position) = argument, position >= 0, position < constantCount else { return nil }
            slots.append(Int(position))
        }
        return Plan(sql: sql, slots: slots)
    }

    func keep(_ plan: Plan, for shape: DataStoreQueryShape, columns: Columns) {
        let key = Key(shape: shape, columns: columns)
        state.withLock { state in
            if state.plans.count >= Self.capacity { state = State() }
            state.plans[key] = plan
            state.remember(key, plan)
        }
    }

    var count: Int { state.withLock { $0.plans.count } }
}
