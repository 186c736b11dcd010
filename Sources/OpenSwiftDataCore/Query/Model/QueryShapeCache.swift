import Synchronization

/// What a store made of each query shape (``DataStoreQueryShape``), such as its rendered SQL: a
/// query of a shape seen before binds its constants into what was made, instead of being
/// rendered again. `Variant` tells apart what one store makes of one shape (the columns selected).
package final class QueryShapeCache<Variant: Hashable & Sendable, Plan: Sendable>: Sendable {
    private struct Key: Hashable, Sendable {
        let shape: DataStoreQueryShape
        let variant: Variant

        static func == (lhs: Key, rhs: Key) -> Bool { lhs.variant == rhs.variant && lhs.shape == rhs.shape }
    }

    /// A class, so that comparing a recent entry reads its key in place: copying a key out of an
    /// array retains and releases everything in its query.
    private final class Recent: Sendable {
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
    }

    /// Enough for every shape a program's code spells; a program that builds predicates on the
    /// fly starts over rather than growing without bound.
    package let capacity: Int
    /// The shapes used last are compared before the dictionary is asked: hashing a shape goes
    /// through every string in it, where comparing it with the shape of the same code's last
    /// query finds the same strings and stops at their identity.
    private static var recentCount: Int { 4 }
    private let state = Mutex(State())

    package init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// What was kept for `shape` and `variant`; nil when nothing was.
    package func plan(for shape: DataStoreQueryShape, _ variant: Variant) -> Plan? {
        state.withLock { state in
            if let index = state.recent.firstIndex(where: { $0.key.variant == variant && $0.key.shape == shape }) {
                if index > 0 { state.recent.swapAt(index, 0) }
                return state.recent[0].plan
            }
            let key = Key(shape: shape, variant: variant)
            guard let plan = state.plans[key] else { return nil }
            Self.remember(key, plan, in: &state)
            return plan
        }
    }

    package func keep(_ plan: Plan, for shape: DataStoreQueryShape, _ variant: Variant) {
        let key = Key(shape: shape, variant: variant)
        state.withLock { state in
            if state.plans.count >= capacity { state = State() }
            state.plans[key] = plan
            Self.remember(key, plan, in: &state)
        }
    }

    /// How many plans are kept.
    package var count: Int { state.withLock { $0.plans.count } }

    private static func remember(_ key: Key, _ plan: Plan, in state: inout State) {
        state.recent.insert(Recent(key, plan), at: 0)
        if state.recent.count > recentCount { state.recent.removeLast() }
    }
}

/// A statement rendered from a query shape: its SQL, and for each of its filter's arguments the
/// position of the query's constant it binds.
package struct ShapedStatement: Sendable, Hashable {
    package let sql: String
    package let slots: [Int]

    /// The statement for SQL rendered from a shape's query (whose constants are their positions)
    /// with these arguments; nil when an argument is not a lone position (a long `in` list bound
    /// as one array), so that the SQL is not one for every query of the shape.
    package init?(sql: String, renderedArguments: [QueryValue], constantCount: Int) {
        var slots: [Int] = []
        slots.reserveCapacity(renderedArguments.count)
        for argument in renderedArguments {
            guard case .integer(let position) = argument, position >= 0, position < constantCount else { return nil }
            slots.append(Int(position))
        }
        self.sql = sql
        self.slots = slots
    }
}
