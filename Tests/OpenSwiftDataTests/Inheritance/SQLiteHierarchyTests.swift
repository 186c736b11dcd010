import Foundation
import GRDB
import OpenSwiftData
import Synchronization
import Testing

/// The SQLite store's one table per class hierarchy: the rows of `Vehicle`, `Car` and `Truck`
/// in the `Vehicle` table, each naming its entity, related through the base class.
@Suite struct SQLiteHierarchyTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case sqliteFile, sqliteMemory
        var testDescription: String { rawValue }
    }

    private func container(_ store: Store, url: URL? = nil) throws -> ModelContainer {
        let configuration = switch store {
        case .sqliteFile: ModelConfiguration(url: url ?? ScratchFiles.store("hierarchy"))
        case .sqliteMemory: ModelConfiguration(isStoredInMemoryOnly: true)
        }
        return try ModelContainer(for: Schema(vehicleTypes), configurations: [configuration])
    }

    private func sqlite(_ container: ModelContainer) throws -> DefaultStore {
        try #require(container.stores.first?.store as? DefaultStore)
    }

    /// A plain vehicle, a car and a truck, saved.
    private func insertFleet(into context: ModelContext) throws -> (vehicle: Vehicle, car: Car, truck: Truck) {
        let fleet = (Vehicle(plate: "V-1"), Car(plate: "C-1", seats: 5), Truck(plate: "T-1", load: 7.5))
        context.insert(fleet.0)
        context.insert(fleet.1)
        context.insert(fleet.2)
        try context.save()
        return fleet
    }

    @Test(arguments: Store.allCases)
    func theBaseTableHoldsEveryClassWithItsEntity(_ store: Store) throws {
        let container = try container(store)
        _ = try insertFleet(into: ModelContext(container))
        let (tables, columns, entities) = try sqlite(container).readForTesting { db in
            (try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'osd%' AND name NOT LIKE 'sqlite%' ORDER BY name"),
             try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('Vehicle') ORDER BY cid"),
             try String.fetchAll(db, sql: #"SELECT "Z_ENT" FROM "Vehicle" ORDER BY "Z_PK""#))
        }
        #expect(tables == ["Driver", "Garage", "Vehicle"])
        #expect(columns == ["Z_PK", "Z_ENT", "plate", "garage", "seats", "load"])
        #expect(entities == ["Vehicle", "Car", "Truck"])
    }

    @Test func aSubclassFetchReadsItsOwnRowsOfTheBaseTable() throws {
        let store = try sqlite(container(.sqliteMemory))
        let car = try store.selectStatementForTesting(FetchDescriptor<Car>(predicate: #Predicate { $0.seats > 2 }))
        #expect(car.sql == #"SELECT "Vehicle"."Z_PK", "Vehicle"."plate", "Vehicle"."garage", "Vehicle"."seats" FROM "Vehicle" WHERE "Vehicle"."Z_ENT" = 'Car' AND (("Vehicle"."seats" > ?)) ORDER BY "Vehicle"."Z_PK""#)
        #expect(car.arguments == [2.databaseValue])
        let vehicle = try store.selectStatementForTesting(FetchDescriptor<Vehicle>())
        #expect(vehicle.sql == #"SELECT "Vehicle"."Z_PK", "Vehicle"."plate", "Vehicle"."garage" FROM "Vehicle" WHERE "Vehicle"."Z_ENT" = 'Vehicle' ORDER BY "Vehicle"."Z_PK""#)
    }

    @Test func isAndAsRenderAsConditionsOnTheEntityColumn() throws {
        let store = try sqlite(container(.sqliteMemory))
        let columns = #""Vehicle"."Z_PK", "Vehicle"."plate", "Vehicle"."garage""#
        let isCar = try store.selectStatementForTesting(FetchDescriptor<Vehicle>(predicate: #Predicate { $0 is Car }))
        #expect(isCar.sql == #"SELECT \#(columns) FROM "Vehicle" WHERE "Vehicle"."Z_ENT" = 'Vehicle' AND (("Vehicle"."Z_ENT" = 'Car')) ORDER BY "Vehicle"."Z_PK""#)
        #expect(isCar.arguments == [])
        let isVehicle = try store.selectStatementForTesting(FetchDescriptor<Vehicle>(predicate: #Predicate { !($0 is Vehicle) }))
        #expect(isVehicle.sql == #"SELECT \#(columns) FROM "Vehicle" WHERE "Vehicle"."Z_ENT" = 'Vehicle' AND ((NOT ("Vehicle"."Z_ENT" IN ('Vehicle', 'Car', 'Truck')))) ORDER BY "Vehicle"."Z_PK""#)
        let heavy = try store.selectStatementForTesting(FetchDescriptor<Vehicle>(predicate: #Predicate { (($0 as? Truck)?.load ?? 0) > 5 }))
        // The subclass's column of the shared table, read only for the subclass's rows.
        #expect(heavy.sql == #"SELECT \#(columns) FROM "Vehicle" WHERE "Vehicle"."Z_ENT" = 'Vehicle' AND ((COALESCE((CASE WHEN ("Vehicle"."Z_ENT" = 'Truck') THEN "Vehicle"."load" ELSE NULL END), ?) > ?)) ORDER BY "Vehicle"."Z_PK""#)
        #expect(heavy.arguments == [Double(0).databaseValue, Double(5).databaseValue])
    }

    @Test func aBaseClassPredicateRunsInSQLForEverySubclass() throws {
        let container = try container(.sqliteMemory)
        _ = try insertFleet(into: ModelContext(container))
        let statements = Mutex<[String]>([])
        try sqlite(container).traceStatementsForTesting { sql in statements.withLock { $0.append(sql) } }
        let fetched = try ModelContext(container).fetch(FetchDescriptor<Vehicle>(predicate: #Predicate { $0.plate != "V-1" }))
        #expect(fetched.map(\.plate).sorted() == ["C-1", "T-1"])
        let selects = statements.withLock { $0 }.filter { $0.contains(#"FROM "Vehicle""#) }
        #expect(selects == [
            #"SELECT "Vehicle"."Z_PK", "Vehicle"."plate", "Vehicle"."garage" FROM "Vehicle" WHERE "Vehicle"."Z_ENT" = 'Vehicle' AND (("Vehicle"."plate" <> ?)) ORDER BY "Vehicle"."Z_PK""#,
            #"SELECT "Vehicle"."Z_PK", "Vehicle"."plate", "Vehicle"."garage", "Vehicle"."seats" FROM "Vehicle" WHERE "Vehicle"."Z_ENT" = 'Car' AND (("Vehicle"."plate" <> ?)) ORDER BY "Vehicle"."Z_PK""#,
            #"SELECT "Vehicle"."Z_PK", "Vehicle"."plate", "Vehicle"."garage", "Vehicle"."load" FROM "Vehicle" WHERE "Vehicle"."Z_ENT" = 'Truck' AND (("Vehicle"."plate" <> ?)) ORDER BY "Vehicle"."Z_PK""#,
        ])
    }

    @Test(arguments: Store.allCases)
    func isAndAsFilterEveryClassOfTheHierarchy(_ store: Store) throws {
        let container = try container(store)
        _ = try insertFleet(into: ModelContext(container))
        let context = ModelContext(container)
        let trucks = try context.fetch(FetchDescriptor<Vehicle>(predicate: #Predicate { $0 is Truck }))
        #expect(trucks.map(\.plate) == ["T-1"])
        let heavy = try context.fetch(FetchDescriptor<Vehicle>(predicate: #Predicate { (($0 as? Truck)?.load ?? 0) > 5 }))
        #expect(heavy.map(\.plate) == ["T-1"])
        #expect(try context.fetchCount(FetchDescriptor<Vehicle>(predicate: #Predicate { !($0 is Truck) })) == 2)
    }

    @Test(arguments: Store.allCases)
    func aToOneToTheBaseHoldsASubclassModel(_ store: Store) throws {
        let url = ScratchFiles.store("hierarchy")
        let container = try container(store, url: url)
        let context = ModelContext(container)
        let (_, _, truck) = try insertFleet(into: context)
        let driver = Driver(name: "Ada")
        context.insert(driver)
        driver.favourite = truck
        try context.save()
        // A file is read reopened, a memory store by another context.
        let reading = store == .sqliteFile ? try self.container(store, url: url) : container
        let reader = ModelContext(reading)
        let fetched = try #require(reader.fetch(FetchDescriptor<Driver>()).first)
        let favourite = try #require(fetched.favourite)
        #expect(favourite.persistentModelID.entityName == "Truck")
        #expect((favourite as? Truck)?.load == 7.5)
        #expect(favourite.plate == "T-1")
    }

    @Test(arguments: Store.allCases)
    func aOneToManyToTheBaseHoldsEachClassAsItself(_ store: Store) throws {
        let container = try container(store)
        let context = ModelContext(container)
        let (vehicle, car, truck) = try insertFleet(into: context)
        let garage = Garage(name: "Depot")
        context.insert(garage)
        garage.vehicles = [vehicle, car, truck]
        try context.save()
        let reader = ModelContext(container)
        let fetched = try #require(reader.fetch(FetchDescriptor<Garage>()).first)
        let held = fetched.vehicles.sorted { $0.plate < $1.plate }
        #expect(held.map { String(describing: type(of: $0)) } == ["Car", "Truck", "Vehicle"])
        #expect((held[0] as? Car)?.seats == 5)
        #expect(held.map { $0.garage?.name } == ["Depot", "Depot", "Depot"])
    }

    @Test(arguments: Store.allCases)
    func aManyToManyToTheBaseHoldsSubclassModelsOnBothSides(_ store: Store) throws {
        let container = try container(store)
        let context = ModelContext(container)
        let (_, car, truck) = try insertFleet(into: context)
        let ada = Driver(name: "Ada"), bo = Driver(name: "Bo")
        context.insert(ada)
        context.insert(bo)
        ada.vehicles = [car, truck]
        bo.vehicles = [car]
        try context.save()
        let reader = ModelContext(container)
        let drivers = try reader.fetch(FetchDescriptor<Driver>(sortBy: [SortDescriptor(\.name)]))
        #expect(drivers.map { $0.vehicles.map(\.persistentModelID.entityName).sorted() } == [["Car", "Truck"], ["Car"]])
        let fetchedCar = try #require(reader.fetch(FetchDescriptor<Car>()).first)
        #expect(fetchedCar.drivers.map(\.name).sorted() == ["Ada", "Bo"])
        let joinTables = try sqlite(container).readForTesting { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'osd\\_%.%' ESCAPE '\\' ORDER BY name")
        }
        #expect(joinTables == ["osd_Driver.vehicles"])
    }

    @Test(arguments: Store.allCases)
    func uniqueOnTheBaseUpsertsAcrossSubclasses(_ store: Store) throws {
        let container = try container(store)
        let first = ModelContext(container)
        first.insert(Car(plate: "AB-1", seats: 4))
        try first.save()
        let second = ModelContext(container)
        let truck = Truck(plate: "AB-1", load: 12)
        second.insert(truck)
        try second.save()
        let reader = ModelContext(container)
        let all = try reader.fetch(FetchDescriptor<Vehicle>())
        #expect(all.map { String(describing: type(of: $0)) } == ["Truck"])
        #expect((all.first as? Truck)?.load == 12)
        #expect(try reader.fetchCount(FetchDescriptor<Car>()) == 0)
        let seats = try sqlite(container).readForTesting { db in
            try Row.fetchOne(db, sql: #"SELECT "Z_ENT", "seats" FROM "Vehicle""#)
        }
        #expect(seats?["Z_ENT"] == "Truck")
        #expect(seats?.hasNull(atIndex: 1) == true)
    }

    @Test(arguments: Store.allCases)
    func twoSubclassInsertsEqualOnTheBaseConstraintBecomeOneRow(_ store: Store) throws {
        let container = try container(store)
        let context = ModelContext(container)
        context.insert(Car(plate: "AB-2", seats: 2))
        context.insert(Truck(plate: "AB-2", load: 3))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Vehicle>()) == 1)
    }

    @Test(arguments: Store.allCases)
    func countsAndBatchDeletesHonourIncludeSubclasses(_ store: Store) throws {
        let container = try container(store)
        let context = ModelContext(container)
        _ = try insertFleet(into: context)
        context.insert(Car(plate: "C-2", seats: 2))
        try context.save()
        let reader = ModelContext(container)
        #expect(try reader.fetchCount(FetchDescriptor<Vehicle>()) == 4)
        #expect(try reader.fetchCount(FetchDescriptor<Car>()) == 2)
        #expect(try reader.fetchCount(FetchDescriptor<Car>(predicate: #Predicate { $0.seats > 3 })) == 1)
        #expect(try reader.fetchIdentifiers(FetchDescriptor<Truck>()).map(\.entityName) == ["Truck"])

        try reader.delete(model: Vehicle.self, includeSubclasses: false)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Vehicle>(sortBy: [SortDescriptor(\.plate)])).map(\.plate) == ["C-1", "C-2", "T-1"])
        try reader.delete(model: Car.self, where: #Predicate { $0.seats < 3 })
        #expect(try ModelContext(container).fetch(FetchDescriptor<Vehicle>(sortBy: [SortDescriptor(\.plate)])).map(\.plate) == ["C-1", "T-1"])
        try reader.delete(model: Vehicle.self)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Vehicle>()) == 0)
    }

    @Test(arguments: [true, false])
    func theStoreBatchDeleteTakesSubentitiesWhenAsked(_ includeSubclasses: Bool) throws {
        let container = try container(.sqliteMemory)
        _ = try insertFleet(into: ModelContext(container))
        let store = try sqlite(container)
        try store.delete(DataStoreBatchDeleteRequest<Vehicle>(editingState: EditingState(), predicate: #Predicate { $0.plate != "C-1" },
                                                             includeSubclasses: includeSubclasses))
        let left = try ModelContext(container).fetch(FetchDescriptor<Vehicle>(sortBy: [SortDescriptor(\.plate)])).map(\.plate)
        #expect(left == (includeSubclasses ? ["C-1"] : ["C-1", "T-1"]))
        let history = try store.readForTesting { db in
            try String.fetchAll(db, sql: #"SELECT "entity" FROM "osd_history_changes" WHERE "kind" = 2 ORDER BY "key""#)
        }
        #expect(history == (includeSubclasses ? ["Vehicle", "Truck"] : ["Vehicle"]))
    }

    @Test func aFlatEntityGainingSubclassesKeepsItsRowsAndGainsTheirColumns() throws {
        let url = ScratchFiles.store("hierarchy-migration")
        do {
            let flat = try ModelContainer(for: Schema([Vehicle.self, Driver.self, Garage.self]), configurations: [ModelConfiguration(url: url)])
            let context = ModelContext(flat)
            context.insert(Vehicle(plate: "OLD-1"))
            try context.save()
            let columns = try sqlite(flat).readForTesting { db in try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('Vehicle') ORDER BY cid") }
            #expect(columns == ["Z_PK", "plate", "garage"])
        }
        let container = try container(.sqliteFile, url: url)
        let context = ModelContext(container)
        context.insert(Car(plate: "NEW-1", seats: 3))
        try context.save()
        let reader = ModelContext(container)
        let all = try reader.fetch(FetchDescriptor<Vehicle>(sortBy: [SortDescriptor(\.plate)]))
        #expect(all.map { String(describing: type(of: $0)) } == ["Car", "Vehicle"])
        let columns = try sqlite(container).readForTesting { db in try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('Vehicle') ORDER BY cid") }
        #expect(columns == ["Z_PK", "plate", "garage", "Z_ENT", "seats", "load"])
    }

    @Test func aFileKeepingASubclassInItsOwnTableIsRefusedAndLeftAlone() throws {
        let url = ScratchFiles.store("hierarchy-separate")
        _ = try ModelContainer(for: Schema([Vehicle.self, Driver.self, Garage.self]), configurations: [ModelConfiguration(url: url)])
        // As a build before one table per hierarchy wrote it: `Car` in a table of its own.
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: #"CREATE TABLE "Car" ("Z_PK" INTEGER PRIMARY KEY AUTOINCREMENT, "plate" TEXT NOT NULL, "seats" INTEGER NOT NULL)"#)
            let tables = try String.fetchOne(db, sql: "SELECT value FROM osd_metadata WHERE key = 'tables'") ?? "[]"
            var entries = try #require(JSONSerialization.jsonObject(with: Data(tables.utf8)) as? [[String: Any]])
            var car = try #require(entries.first { $0["entityName"] as? String == "Vehicle" })
            car["entityName"] = "Car"
            entries.append(car)
            let json = String(decoding: try JSONSerialization.data(withJSONObject: entries), as: UTF8.self)
            try db.execute(sql: "UPDATE osd_metadata SET value = ? WHERE key = 'tables'", arguments: [json])
        }
        let error = try #require(throws: SQLiteStoreError.self) { try container(.sqliteFile, url: url) }
        #expect(error.code == .incompatibleSchema)
        #expect(error.message == "The store keeps Car in a table of its own, as releases before one table per class hierarchy did; this release keeps it in Vehicle's table and does not move the rows. Open the file with the earlier release and copy the Car models into a new store, or move the file aside to start a new one.")
        let columns = try DatabaseQueue(path: url.path).read { db in try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('Vehicle') ORDER BY cid") }
        #expect(columns == ["Z_PK", "plate", "garage"])
    }
}
