import Foundation
import OpenSwiftData
import StoreWire

/// Contexts reach a server's models as rows: `rows` answers with each model's values in its
/// type's property order, the property names and the store once for all models (``RowsResponse``),
/// where `fetch` repeats them, and a whole identifier, with every snapshot.
extension RemoteStore: DataStoreRowAccess {
    /// The models of `T` that `descriptor` selects, as rows, from the server's `POST /v1/rows`.
    public func fetchRows<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws -> [DataStoreRow] {
        let reply = try exchange(StoreAPI.rows, body: try body(of: try query(descriptor)), headers: [])
        do {
            return try RowsResponse.decodeRows(from: reply.body, layout: DataStoreRowLayout(for: T.self))
        } catch {
            throw RemoteStoreError(.invalidResponse, "The server's answer to \(StoreAPI.rows) cannot be read (\(error)); are client and server built from the same models and versions?", status: reply.status, underlying: error)
        }
    }

    /// A save as ``save(_:)`` sends it, answered with each insert's identifier in order.
    public func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> [PersistentIdentifier] {
        var token: (any HistoryToken)?
        return try saveRows(request, historyToken: &token)
    }

    /// ``saveRows(_:)``, answering the token of the history transaction the server recorded.
    public func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, historyToken: inout (any HistoryToken)?) throws -> [PersistentIdentifier] {
        let response = try send(request)
        historyToken = response.historyToken
        let remap = remap(of: response)
        return request.inserted.map { remap[$0.persistentIdentifier] ?? $0.persistentIdentifier }
    }
}
