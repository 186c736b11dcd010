import Foundation
import OpenSwiftData

/// Contexts reach the JSON store through rows: the snapshots it decoded from the file are in each
/// model's row order already, so a fetch hands over their values without copying them.
extension JSONStore: DataStoreRowAccess {
    /// The models of `T` that `descriptor` selects, as rows, from the file's snapshots.
    public func fetchRows<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, editingState: EditingState) throws -> [DataStoreRow] {
        DataStoreRowLayout(for: T.self).rows(of: try matching(descriptor))
    }

    /// A save as ``save(_:)`` makes it, answered with each insert's identifier in order.
    public func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> [PersistentIdentifier] {
        var token: (any HistoryToken)?
        return try saveRows(request, historyToken: &token)
    }

    /// ``saveRows(_:)``, answering the token of the history transaction the save recorded.
    public func saveRows(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>, historyToken: inout (any HistoryToken)?) throws -> [PersistentIdentifier] {
        try saveRowsThroughSave(request, historyToken: &historyToken)
    }
}
