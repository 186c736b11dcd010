import Synchronization

/// The `SELECT`s a store has rendered, by query shape (``DataStoreQueryShape``): a fetch whose
/// shape was seen binds its constants into the SQL already made. Rendering was a sixth of a
/// lookup by key, and the same few shapes run over and over.
///
/// A plan is kept only when rendering read nothing from the database: a query naming a column
/// that can hold NaN depends on the store's NaN flags, which a save can change.
final class SQLiteSelectPlans: Sendable {
    /// What the statement selects: whole models (the layout's select list) or their keys.
    enum Columns: Hashable, Sendable { case models, keys }

    struct Plan: Sendable {
        /// The whole statement, paging included.
        let sql: String
        /// For each argument of the filter, in order, the position of the constant it binds.
        let slots: [Int]

        /// The filter's arguments for a query of this shape with these constants.
        func arguments(_ constants: [QueryValue]) -> [QueryValue] { slots.map { constants[$0] } }
    }

    private struct Key: Hashable {
        let shape: DataStoreQueryShape
        let columns: Columns
    }

    /// Enough for every shape a program's code spells; a program that builds predicates on the
    /// fly starts over rather than growing without bound.
    static let capacity = 256

    private let plans = Mutex<[Key: Plan]>([:])

    func plan(for shape: DataStoreQueryShape, columns: Columns) -> Plan? {
        let key = Key(shape: shape, columns: columns)
        return plans.withLock { $0[key] }
    }

    /// The plan for SQL rendered from `shape.query` (whose constants are their positions) with
    /// these filter arguments; nil when an argument is not a lone position (a long `in` list
    /// binds them all as one JSON array), so the SQL is not one for every query of the shape.
    static func plan(sql: String, renderedArguments: [QueryValue], constantCount: Int) -> Plan? {
        var slots: [Int] = []
        slots.reserveCapacity(renderedArguments.count)
        for argument in renderedArguments {
            guard case .integer(let position) = argument, position >= 0, position < constantCount else { return nil }
            slots.append(Int(position))
        }
        return Plan(sql: sql, slots: slots)
    }

    func keep(_ plan: Plan, for shape: DataStoreQueryShape, columns: Columns) {
        plans.withLock { plans in
            if plans.count >= Self.capacity { plans.removeAll() }
            plans[Key(shape: shape, columns: columns)] = plan
        }
    }

    var count: Int { plans.withLock { $0.count } }
}
