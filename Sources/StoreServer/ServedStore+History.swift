import Foundation
import OpenSwiftData
import StoreWire

/// The served store's history, by entity and property name: the server needs no model types to
/// serve it, and each client types the changes with its own.
extension ServedStore {
    /// The store's history, or a 404 for a store that keeps none.
    private func history() throws -> any HistoryRecordReading {
        guard let history = store as? any HistoryRecordReading else {
            throw StoreServerError(.notFound, "The server's store (\(type(of: store))) keeps no history; serve the default store, InMemoryStore or JSONStore for history.")
        }
        return history
    }

    func fetchHistory(_ request: HistoryRequest) throws -> HistoryResponse {
        let history = try history()
        let query = try checked(request)
        let records = try serialised { try history.historyRecords(query) }
        return HistoryResponse(storeIdentifier: history.historyStoreIdentifier, records: records)
    }

    /// The number of the store's newest transaction, nil while it has none or keeps no history.
    func latestHistoryTransaction() throws -> Int64? {
        guard let history = store as? any HistoryRecordReading else { return nil }
        return try serialised { try history.latestHistoryTransaction() }
    }

    func deleteHistory(_ request: HistoryRequest) throws {
        let history = try history()
        let query = try checked(request)
        try serialised { try history.deleteHistoryRecords(query) }
        historyEvents.storeChanged()
    }

    /// The request's query, its entity names checked against the schema.
    private func checked(_ request: HistoryRequest) throws -> HistoryRecordQuery {
        let query = try request.query()
        for case .changedEntity(let names) in query.filter.conditions {
            for name in names.sorted() { _ = try schema.entity(named: name) }
        }
        return query
    }
}

/// Tells every client streaming `history/events` of the store's newest transaction: after each
/// save and batch delete the server makes, and, while any client listens, once a second (for
/// writers outside the server, such as another process on the same SQLite file).
final class HistoryBroadcaster: @unchecked Sendable {
    /// What a stream sends: the newest transaction's number, or a keep-alive.
    enum Message: Sendable {
        case latest(Int64?)
        case keepAlive
    }

    let storeIdentifier: String
    /// Reads the store's newest transaction number; set once, before any client listens.
    var latest: @Sendable () throws -> Int64? = { nil }
    private let lock = NSLock()
    private var listeners: [UUID: AsyncStream<Message>.Continuation] = [:]
    private var announced: Int64?
    private var poller: Task<Void, Never>?

    init(storeIdentifier: String) {
        self.storeIdentifier = storeIdentifier
    }

    /// A stream of messages that starts with the newest transaction now, and ends when the
    /// listener stops iterating.
    func listen() -> AsyncStream<Message> {
        let (stream, continuation) = AsyncStream<Message>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = UUID()
        let current = try? latest()
        lock.withLock {
            listeners[id] = continuation
            announced = current ?? announced
            if poller == nil { poller = Task { [weak self] in await self?.poll() } }
        }
        continuation.yield(.latest(current))
        continuation.onTermination = { [weak self] _ in self?.stopListening(id) }
        return stream
    }

    /// Announces the newest transaction to every listener when it changed.
    func storeChanged() {
        guard lock.withLock({ !listeners.isEmpty }), let current = try? latest() else { return }
        let targets: [AsyncStream<Message>.Continuation] = lock.withLock {
            guard current != announced else { return [] }
            announced = current
            return Array(listeners.values)
        }
        for target in targets { target.yield(.latest(current)) }
    }

    private func stopListening(_ id: UUID) {
        lock.withLock {
            listeners[id] = nil
            if listeners.isEmpty {
                poller?.cancel()
                poller = nil
            }
        }
    }

    private func poll() async {
        var seconds = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            storeChanged()
            seconds += 1
            // A comment line every 15 s keeps the connection from looking idle.
            if seconds % 15 == 0 {
                for target in lock.withLock({ Array(listeners.values) }) { target.yield(.keepAlive) }
            }
        }
    }
}
