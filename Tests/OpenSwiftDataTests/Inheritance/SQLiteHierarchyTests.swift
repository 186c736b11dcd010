import Foundation
import GRDB
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Synchronization
import Testing

/// The SQL stores' one table per class hierarchy: the rows of `Vehicle`, `Car` and `Truck` in
/// the `Vehicle` table, each naming its entity, related through the base class; on SQLite and on
/// PostgreSQL, whose tables are laid out alike.
@Suite struct SQLiteHierarchyTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case sqliteFile, sqliteMemory, postgres
        var testDescription: String { rawValue }
    }

    /// A container on `store`; `url` reopens the same file (PostgreSQL: database).
    private func container(_ store: Store, url: URL? = nil, types: [any PersistentModel.Type] = vehicleTypes) throws -> ModelContainer {
        let schema = Schema(types)
        switch store {
        case .sqliteFile: return try ModelContainer(for: schema, configurations: [ModelConfiguration(url: url ?? ScratchFiles.store("hierarchy"))])
        case .sqliteMemory: return try ModelContainer(for: schema, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        case .postgres:
            let database = try url?.absoluteString ?? TestDatabase.makeDatabase()
            return try ModelContainer(for: schema, configurations: [PostgresStoreConfiguration(schema: schema, url: database)])
        }
    }

    /// Where `store` keeps a store that a second container reopens.
    private func location(_ store: Store, _ name: String) throws -> URL {
        store == .postgres ? try #require(URL(string: TestDatabase.makeDatabase())) : ScratchFiles.store(name)
    }

    private func sqlite(_ container: ModelContainer) throws -> DefaultStore {
        try #require(container.stores.first?.store as? DefaultStore)
    }

    /// The first column of each row `sql` answers in the container's database, as text.
    private func read(_ sql: String, _ container: ModelContainer) throws -> [String] {
        if let postgres = container.stores.first?.store as? PostgresStore {
            return try TestDatabase.strings(sql, in: postgres.configuration)
        }
        return try sqlite(container).readForTesting { db in try String.fetchAll(db, sql: sql) }
    }

    /// The columns of the `Vehicle` table, in order.
    private func vehicleColumns(_ container: ModelContainer) throws -> [String] {
        guard container.stores.first?.store is PostgresStore else {
            return try read("SELECT name FROM pragma_table_info('Vehicle') ORDER BY cid", container)
        }
        return try read("SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'Vehicle' ORDER BY ordinal_position", container)
    }

    /// The SQL of a fetch of `descriptor`, placeholders as SQLite writes them.
    private func select<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, _ container: ModelContainer) throws -> String {
        guard let postgres = container.stores.first?.store as? PostgresStore else { return try sqlite(container).selectStatementForTesting(descriptor).sql }
        return try postgres.selectStatementForTesting(descriptor).replacing(/\$[0-9]+/, with: "?")
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
        let tables = store == .postgres
            ? "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() AND table_name NOT LIKE 'osd%' ORDER BY 1"
            : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'osd%' AND name NOT LIKE 'sqlite%' ORDER BY name"
        #expect(try read(tables, container) == ["Driver", "Garage", "Vehicle"])
        #expect(try vehicleColumns(container) == ["Z_PK", "Z_ENT", "plate", "garage", "seats", "load"])
        #expect(try read(#"SELECT "Z_ENT" FROM "Vehicle" ORDER BY "Z_PK""#, container) == ["Vehicle", "Car", "Truck"])
    }

    @Test(arguments: [Store.sqliteMemory, .postgres])
    func aSubclassFetchReadsItsOwnRowsOfTheBaseTable(_ store: Store) throws {
        let container = try container(store)
        let car = try select(FetchDescriptor<Car>(predicate: #Predicate { $0.seats > 2 }), container)
        #expect(car == #"SELECT "Vehicle"."Z_PK", "Vehicle"."plate", "Vehicle"."garage", "Vehicle"."seats" FROM "Vehicle" WHERE "Vehicle"."Z_ENT" = 'Car' AND (("Vehicle"."seats" > ?)) ORDER BY "Vehicle"."Z_PK""#)
        let vehicle = try select(FetchDescriptor<Vehicle>(), container)
        #expect(vehicle == #"SELECT "Vehicle"."Z_PK", "Vehicle"."plate", "Vehicle"."garage" FROM "Vehicle" WHERE "Vehicle"."Z_ENT" = 'Vehicle' ORDER BY "Vehicle"."Z_PK""#)
    }

    @Test func aSubclassFetchBindsItsPredicatesValues() throws {
        let store = try sqlite(container(.sqliteMemory))
        #expect(try store.selectStatementForTesting(FetchDescriptor<Car>(predicate: #Predicate { $0.seats > 2 })).arguments == [2.databaseValue])
        let heavy = try store.selectStatementForTesting(FetchDescriptor<Vehicle>(predicate: #Predicate { (($0 as? Truck)?.load ?? 0) > 5 }))
        #expect(heavy.arguments == [Double(0).databaseValue, Double(5).databaseValue])
    }

    @Test(arguments: [Store.sqliteMemory, .postgres])
    func isAndAsRenderAsConditionsOnTheEntityColumn(_ store: Store) throws {
        let container = try container(store)
        let columns = #""Vehicle"."Z_PK", "Vehicle"."plate", "Vehicle"."garage""#
        let isCar = try select(FetchDescriptor<Vehicle>(predicate: #Predicate { $0 is Car }), container)
        #expect(isCar == #"SELECT \#(columns) FROM "Vehicle" WHERE "Vehicle"."Z_ENT" = 'Vehicle' AND (("Vehicle"."Z_ENT" = 'Car')) ORDER BY "Vehicle"."Z_PK""#)
        // Built without the macro: `$0 is Vehicle` on a Vehicle is a test the compiler warns is always true.
        let notVehicle = Predicate<Vehicle> { vehicle in
            PredicateExpressions.build_Negation(PredicateExpressions.TypeCheck<PredicateExpressions.Variable<Vehicle>, Vehicle>(vehicle))
        }
        let isVehicle = try select(FetchDescriptor<Vehicle>(predicate: notVehicle), container)
        #expect(isVehicle == #"SELECT \#(columns) FROM "Vehicle" WHERE "Vehicle"."Z_ENT" = 'Vehicle' AND ((NOT ("Vehicle"."Z_ENT" IN ('Vehicle', 'Car', 'Truck')))) ORDER BY "Vehicle"."Z_PK""#)
        let heavy = try select(FetchDescriptor<Vehicle>(predicate: #Predicate { (($0 as? Truck)?.load ?? 0) > 5 }), container)
        // The subclass's column of the shared table, read only for the subclass's rows; PostgreSQL
        // orders NaN, which Swift does not, so its comparison leaves NaN out.
        let load = #"COALESCE((CASE WHEN ("Vehicle"."Z_ENT" = 'Truck') THEN "Vehicle"."load" ELSE NULL END), ?)"#
        let comparison = store == .postgres
            ? #"(\#(load) > ? AND NOT COALESCE(\#(load) = CAST('NaN' AS double precision), FALSE) AND NOT COALESCE(? = CAST('NaN' AS double precision), FALSE))"#
            : #"(\#(load) > ?)"#
        #expect(heavy == #"SELECT \#(columns) FROM "Vehicle" WHERE "Vehicle"."Z_ENT" = 'Vehicle' AND (\#(comparison)) ORDER BY "Vehicle"."Z_PK""#)
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
        let url = try location(store, "hierarchy")
        let container = try container(store, url: url)
        let context = ModelContext(container)
        let (_, _, truck) = try insertFleet(into: context)
        let driver = Driver(name: "Ada")
        context.insert(driver)
        driver.favourite = truck
        try context.save()
        // A file or database is read reopened, a memory store by another context.
        let reading = store == .sqliteMemory ? container : try self.container(store, url: url)
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
        let joinTables = store == .postgres
            ? "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'osd\\_%.%' ESCAPE '\\' ORDER BY 1"
            : "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'osd\\_%.%' ESCAPE '\\' ORDER BY name"
        #expect(try read(joinTables, container) == ["osd_Driver.vehicles"])
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
        #expect(all.first?.persistentModelID == truck.persistentModelID)
        #expect(try reader.fetchCount(FetchDescriptor<Car>()) == 0)
        #expect(try read(#"SELECT "Z_ENT" || ' ' || coalesce(CAST("seats" AS TEXT), 'NULL') FROM "Vehicle""#, container) == ["Truck NULL"])
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

    @Test(arguments: [Store.sqliteMemory, .postgres], [true, false])
    func theStoreBatchDeleteTakesSubentitiesWhenAsked(_ store: Store, _ includeSubclasses: Bool) throws {
        let container = try container(store)
        _ = try insertFleet(into: ModelContext(container))
        let request = DataStoreBatchDeleteRequest<Vehicle>(editingState: EditingState(), predicate: #Predicate { $0.plate != "C-1" },
                                                           includeSubclasses: includeSubclasses)
        if let postgres = container.stores.first?.store as? PostgresStore { try postgres.delete(request) } else { try sqlite(container).delete(request) }
        let left = try ModelContext(container).fetch(FetchDescriptor<Vehicle>(sortBy: [SortDescriptor(\.plate)])).map(\.plate)
        #expect(left == (includeSubclasses ? ["C-1"] : ["C-1", "T-1"]))
        let history = try read(#"SELECT "entity" FROM "osd_history_changes" WHERE "kind" = 2 ORDER BY "key""#, container)
        #expect(history == (includeSubclasses ? ["Vehicle", "Truck"] : ["Vehicle"]))
        // Inserts name each model's own entity too.
        #expect(try read(#"SELECT "entity" FROM "osd_history_changes" WHERE "kind" = 0 ORDER BY "key""#, container) == ["Vehicle", "Car", "Truck"])
    }

    @Test(arguments: [Store.sqliteFile, .postgres])
    func aFlatEntityGainingSubclassesKeepsItsRowsAndGainsTheirColumns(_ store: Store) throws {
        let url = try location(store, "hierarchy-migration")
        do {
            let flat = try container(store, url: url, types: [Vehicle.self, Driver.self, Garage.self])
            let context = ModelContext(flat)
            context.insert(Vehicle(plate: "OLD-1"))
            try context.save()
            #expect(try vehicleColumns(flat) == ["Z_PK", "plate", "garage"])
        }
        let container = try container(store, url: url)
        let context = ModelContext(container)
        context.insert(Car(plate: "NEW-1", seats: 3))
        try context.save()
        let reader = ModelContext(container)
        let all = try reader.fetch(FetchDescriptor<Vehicle>(sortBy: [SortDescriptor(\.plate)]))
        #expect(all.map { String(describing: type(of: $0)) } == ["Car", "Vehicle"])
        #expect(try vehicleColumns(container) == ["Z_PK", "plate", "garage", "Z_ENT", "seats", "load"])
        #expect(try read(#"SELECT "Z_ENT" FROM "Vehicle" ORDER BY "Z_PK""#, container) == ["Vehicle", "Car"])
    }

    @Test(arguments: [Store.sqliteFile, .postgres])
    func aClassLeavingTheHierarchyTakesItsRowsAndColumnsAlong(_ store: Store) throws {
        let url = try location(store, "hierarchy-leaving")
        _ = try insertFleet(into: ModelContext(container(store, url: url)))
        let container = try container(store, url: url, types: [Vehicle.self, Car.self, Driver.self, Garage.self])
        #expect(try read(#"SELECT "Z_ENT" FROM "Vehicle" ORDER BY "Z_PK""#, container) == ["Vehicle", "Car"])
        #expect(try vehicleColumns(container) == ["Z_PK", "Z_ENT", "plate", "garage", "seats"])
        let all = try ModelContext(container).fetch(FetchDescriptor<Vehicle>(sortBy: [SortDescriptor(\.plate)]))
        #expect(all.map { String(describing: type(of: $0)) } == ["Car", "Vehicle"])
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
