import Foundation
import OpenSwiftData
import RemoteStore
import SampleTrips
import StoreServer
import Testing

/// A client built from another schema version than its server's is stopped before its first
/// request with `schemaMismatch`, naming both versions, instead of failing to decode answers.
///
/// Serialized: the trips schema's two versions share entity names, which resolve process-wide.
@Suite(.serialized) final class SchemaAgreementTests {
    let directory: URL
    let server: RunningStoreServer

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: Schema(versionedSchema: TripsSchemaV2.self), directory: directory)
    }

    deinit { stopInBackground(server, removing: directory) }

    @Test func aClientOfAnEarlierSchemaVersionIsToldBothVersionsAndToUpdate() throws {
        let context = ModelContext(try remoteContainer(schema: Schema(versionedSchema: TripsSchemaV1.self), url: server.url))
        let error = #expect(throws: RemoteStoreError.self) { try context.fetch(FetchDescriptor<TripsSchemaV1.Trip>()) }
        #expect(error?.code == .schemaMismatch)
        #expect(error?.message == "This app uses schema version 1.0.0, but the server serves schema version 2.0.0; they differ in Trip. Update this app to the version that uses schema 2.0.0.")
    }

    @Test func aClientOfALaterSchemaIsToldToMigrateTheServer() throws {
        let context = ModelContext(try remoteContainer(schema: Schema([NoteV3.self], version: Schema.Version(3, 0, 0)), url: server.url))
        let error = #expect(throws: RemoteStoreError.self) { try context.fetchCount(FetchDescriptor<NoteV3>()) }
        #expect(error?.code == .schemaMismatch)
        #expect(error?.message == "This app uses schema version 3.0.0, but the server serves schema version 2.0.0; they differ in NoteV3 (not served). Migrate the server's store to schema 3.0.0 (`openswiftdata-server migrate`) and restart it with that schema.")
    }

    /// While another thread keeps building the earlier version's schema (as a migration in the
    /// same process does), names in the server's requests and the client's answers still resolve
    /// to version 2's types.
    @Test func aClientOfTheServersSchemaSavesAndFetchesWhileAnotherVersionIsInUse() throws {
        let other = EarlierVersionInUse()
        defer { other.stop() }
        let context = ModelContext(try remoteContainer(schema: Schema(versionedSchema: TripsSchemaV2.self), url: server.url))
        let start = Date(timeIntervalSinceReferenceDate: 0)
        context.insert(Trip(name: "Oslo", destination: "Norway", startDate: start, endDate: start, budgetCents: 80_025))
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.budgetCents) == [80_025])
    }

    /// A model the trips server does not serve.
    @Model final class NoteV3 {
        var text: String
        init(text: String) { self.text = text }
    }
}
