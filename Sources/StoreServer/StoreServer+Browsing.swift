import Foundation
import OpenSwiftData

/// What the store browser (the StoreBrowser target) uses of a server: its store calls, run as the
/// API's are (serialised, off the event loops, within the time limit), its tokens, and its history
/// events, so that a page and the API see one store and one stream of changes.
package struct ServerBrowsing: Sendable {
    /// What a token may do in the browser.
    package enum Access: Sendable, Equatable {
        /// Look at the store: a token with the read scope.
        case read
        /// Also edit and delete models, in the browser's edit mode: a token with the admin scope,
        /// which covers it.
        case edit
    }

    let store: ServedStore
    let work: BlockingWork
    let tokens: [String: Set<StoreServerConfiguration.Scope>]

    /// The container whose store the server serves.
    package var container: ModelContainer { store.container }

    /// The identifier of the store's models.
    package var storeIdentifier: String { store.identifier }

    /// Whether the store keeps history, so that pages can follow its changes.
    package var keepsHistory: Bool { store.store is any HistoryRecordReading }

    /// Every token that may use the browser, with what it may do there: a token reads the store
    /// with the read scope, and edits it with the admin scope as well.
    package var accessByToken: [(token: String, access: Access)] {
        tokens.sorted { $0.key < $1.key }.compactMap { token, scopes in
            guard scopes.contains(.read) else { return nil }
            return (token, scopes.contains(.admin) ? .edit : .read)
        }
    }

    /// Runs `call` on the server's store threads, within its time limit.
    package func run<T: Sendable>(_ call: @escaping @Sendable () throws -> T) async throws -> T {
        try await work.run(call)
    }

    /// The snapshots the query selects, under the store's lock; call from ``run(_:)``.
    package func snapshots(_ query: DataStoreQuery) throws -> [DefaultSnapshot] {
        try store.fetch(query)
    }

    /// How many models the query's filter selects, under the store's lock; call from ``run(_:)``.
    package func count(_ query: DataStoreQuery) throws -> Int {
        try store.count(query)
    }

    /// What a listener to the store's changes hears.
    package enum Change: Sendable, Equatable {
        /// The number of the store's newest transaction: first the one at connection time, then
        /// each newer one.
        case latest(Int64?)
        /// Nothing changed for a while; a line keeps the connection from looking idle.
        case keepAlive
    }

    /// The store's changes, until the listener stops iterating or the server shuts down; empty for
    /// a store without history. The events of the API's `history/events`, from the same source.
    package func changes() -> AsyncStream<Change> {
        guard keepsHistory else { return AsyncStream { $0.finish() } }
        let messages = store.historyEvents.listen()
        return AsyncStream { continuation in
            let relay = Task {
                for await message in messages {
                    switch message {
                    case .latest(let number): continuation.yield(.latest(number))
                    case .keepAlive: continuation.yield(.keepAlive)
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }

    /// Tells the history listeners of a save made outside the API (the browser's own).
    package func storeChanged() {
        store.historyEvents.storeChanged()
    }
}

extension StoreServer {
    /// The server's store, tokens and events, for the store browser.
    package var browsing: ServerBrowsing {
        ServerBrowsing(store: routes.store, work: routes.work, tokens: configuration.tokens)
    }
}
