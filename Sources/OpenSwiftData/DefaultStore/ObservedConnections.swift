import GRDB
import Synchronization

/// The SQLite connections a GRDB transaction observer watches. Their statements run through
/// GRDB (``GRDB/Statement/forEachRowBound(_:_:)``), whose per-statement bookkeeping reports each
/// changed row to the observers; the other connections step their statements straight through
/// SQLite's C API.
enum ObservedConnections {
    /// How many connections are watched: while none is, asking costs one relaxed load.
    private static let count = Atomic<Int>(0)
    /// Each connection's address (a pointer is not `Sendable`).
    private static let connections = Mutex<Set<UInt>>([])

    static func isObserved(_ connection: OpaquePointer?) -> Bool {
        guard count.load(ordering: .relaxed) > 0, let connection else { return false }
        let address = UInt(bitPattern: connection)
        return connections.withLock { $0.contains(address) }
    }

    static func insert(_ connection: OpaquePointer) {
        let address = UInt(bitPattern: connection)
        connections.withLock { set in
            if set.insert(address).inserted { count.add(1, ordering: .relaxed) }
        }
    }

    /// Forgets a connection by its address, when its store goes away.
    static func remove(address: UInt) {
        connections.withLock { set in
            if set.remove(address) != nil { count.subtract(1, ordering: .relaxed) }
        }
    }
}
