import Foundation
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Testing

/// The stores the context's inheritance tests run on: each keeps a hierarchy its own way (one
/// SQL table per hierarchy, or snapshots by entity), and the context must see the same models.
enum InheritanceStore: String, CaseIterable, CustomTestStringConvertible {
    case sqliteFile, sqliteMemory, postgres, inMemoryStore
    var testDescription: String { rawValue }

    /// A new, empty container of `types` on this store.
    func container(_ types: [any PersistentModel.Type]) throws -> ModelContainer {
        let schema = Schema(types)
        switch self {
        case .sqliteFile: return try ModelContainer(for: schema, configurations: [ModelConfiguration(url: ScratchFiles.store("inheritance"))])
        case .sqliteMemory: return try ModelContainer(for: schema, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        case .postgres: return try ModelContainer(for: schema, configurations: [PostgresStoreConfiguration(schema: schema, url: TestDatabase.makeDatabase())])
        case .inMemoryStore: return try ModelContainer(for: schema, configurations: [InMemoryStoreConfiguration()])
        }
    }
}
