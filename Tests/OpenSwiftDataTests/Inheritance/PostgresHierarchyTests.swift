import Foundation
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Testing

/// What PostgresStore's hierarchy tables hold beyond what ``SQLiteHierarchyTests`` checks on
/// every SQL store: foreign keys to the hierarchy's table, and a database of an earlier release.
@Suite struct PostgresHierarchyTests {
    private func container(_ url: String, types: [any PersistentModel.Type] = vehicleTypes) throws -> ModelContainer {
        let schema = Schema(types)
        return try ModelContainer(for: schema, configurations: [try PostgresStoreConfiguration(schema: schema, url: url)])
    }

    private func strings(_ sql: String, _ url: String) throws -> [String] {
        try TestDatabase.strings(sql, in: try PostgresStoreConfiguration(url: url))
    }

    @Test func everyKeyOfAClassOfTheHierarchyReferencesItsTable() throws {
        let url = try TestDatabase.makeDatabase()
        _ = try container(url)
        let references = try strings("SELECT conname::text || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'f' AND conname NOT LIKE 'osd\\_history%' ORDER BY 1", url)
        #expect(references == [
            #"osd_Driver.vehicles_member_fkey FOREIGN KEY (member) REFERENCES "Vehicle"("Z_PK") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED"#,
            #"osd_Driver.vehicles_owner_fkey FOREIGN KEY (owner) REFERENCES "Driver"("Z_PK") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED"#,
            #"osd_Driver_fk_favourite FOREIGN KEY (favourite) REFERENCES "Vehicle"("Z_PK") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED"#,
            #"osd_Vehicle_fk_garage FOREIGN KEY (garage) REFERENCES "Garage"("Z_PK") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED"#,
        ])
        let indexes = try strings("SELECT indexname::text FROM pg_indexes WHERE tablename = 'Vehicle' ORDER BY 1", url)
        #expect(indexes == ["Vehicle_pkey", "osd_Vehicle_entity_Z_ENT", "osd_Vehicle_lookupnfc_plate", "osd_Vehicle_reference_garage",
                            "osd_Vehicle_uniquenfc_plate"])
    }

    @Test func aDatabaseKeepingASubclassInItsOwnTableIsRefusedAndLeftAlone() throws {
        let url = try TestDatabase.makeDatabase()
        _ = try container(url, types: [Vehicle.self, Driver.self, Garage.self])
        // As a release before one table per hierarchy wrote it: `Car` in a table of its own.
        _ = try strings(#"CREATE TABLE "Car" ("Z_PK" bigint PRIMARY KEY, "plate" text NOT NULL, "seats" bigint NOT NULL)"#, url)
        let error = try #require(throws: PostgresStoreError.self) { try container(url) }
        #expect(error.code == .incompatibleSchema)
        #expect(error.message == "The database keeps Car in a table of its own, as releases before one table per class hierarchy did; this release keeps it in Vehicle's table and does not move the rows. Copy the Car models into a new database with the earlier release, or drop the Car table if its rows are not needed. The database is unchanged.")
        let columns = try strings("SELECT column_name::text FROM information_schema.columns WHERE table_name = 'Vehicle' ORDER BY ordinal_position", url)
        #expect(columns == ["Z_PK", "plate", "garage"])
    }
}
