import Foundation
import Logging
import MetricsTestKit
import OpenSwiftData
import Synchronization
import Testing

/// The library's log and metrics. They are process-wide settings, so these tests run one at a
/// time and read only what their own store (named per test) reported.
@Suite(.serialized) struct MonitoringTests {
    @Test func storesCountAndTimeFetchesAndSavesInTheMetricsFactory() throws {
        let metrics = TestMetrics()
        ModelContainer.metricsFactory = metrics
        defer { ModelContainer.metricsFactory = nil }
        let name = "metrics-\(UUID().uuidString)"
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(name, isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        context.insert(Trip(name: "Oslo", destination: "Norway", startDate: Date(timeIntervalSince1970: 0)))
        try context.save()
        _ = try context.fetch(FetchDescriptor<Trip>())
        _ = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.budget > 0 }))
        _ = try context.fetchCount(FetchDescriptor<Trip>())

        let store = [("store", name)]
        #expect(try metrics.expectCounter("openswiftdata_fetches_total", store).totalValue == 3)
        #expect(try metrics.expectCounter("openswiftdata_saves_total", store).totalValue == 1)
        #expect(try metrics.expectTimer("openswiftdata_fetch_duration", store).values.count == 3)
        #expect(try metrics.expectTimer("openswiftdata_save_duration", store).values.count == 1)
        #expect(try metrics.expectCounter("openswiftdata_store_errors_total", store + [("operation", "save")]).totalValue == 0)
    }

    @Test func containersLogOpeningSlowRequestsAndFailuresToTheLoggerSet() throws {
        let records = LogRecords()
        try logEverything(to: records) {
            let script = StoreScript()
            let name = "logged-\(UUID().uuidString)"
            let container = try ModelContainer(for: Trip.self, configurations: ScriptedConfiguration(name: name, script: script))
            let context = ModelContext(container)
            _ = try context.fetch(FetchDescriptor<Trip>())
            context.insert(Trip(name: "Oslo", destination: "Norway", startDate: Date(timeIntervalSince1970: 0)))
            script.failNextSave = ScriptedFailure(reason: "disk full")
            #expect(throws: ScriptedFailure(reason: "disk full")) { try context.save() }

            let mine = records.all.filter { $0.metadata["store"] == .string(name) }
            #expect(mine.map(\.level) == [.info, .warning, .error])
            #expect(mine.map(\.message) == ["Opened store", "Slow fetch", "The store failed a save"])
            #expect(mine[0].metadata["type"] == "ScriptedStore")
            #expect(mine[1].metadata["entity"] == "Trip")
            #expect(mine[2].metadata["entity"] == "Trip")
            #expect(mine[2].metadata["error"] == .string("\(ScriptedFailure(reason: "disk full"))"))
        }
    }

    @Test func theDefaultStoreLogsEachStatementAsSlowAsTheThresholdWithItsTextButNoValues() throws {
        let records = LogRecords()
        try logEverything(to: records) {
            let name = "statements-\(UUID().uuidString)"
            let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(name, isStoredInMemoryOnly: true))
            let context = ModelContext(container)
            let opened = records.all.count
            _ = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Oslo" }))

            let statements = records.all.dropFirst(opened).filter { $0.metadata["store"] == .string(name) && $0.message == "Slow statement" }
            // The text flag (``SQLiteNaNFlags``), then the select, each by itself: no BEGIN and COMMIT.
            #expect(statements.map(\.level) == [.warning, .warning])
            #expect(statements.map { $0.metadata["sql"] } == [
                #"SELECT "value" FROM "osd_metadata" WHERE "key" = 'unnormalizedTextColumns'"#,
                #"SELECT "Trip"."Z_PK", "Trip"."name", "Trip"."destination", "Trip"."startDate", "Trip"."budget", "Trip"."notes" FROM "Trip" WHERE ("Trip"."name" = ?) ORDER BY "Trip"."Z_PK""#,
            ])
            #expect(statements.allSatisfy { $0.metadata["milliseconds"].flatMap { Int("\($0)") }.map { $0 >= 0 } == true })
        }
    }

    @Test func aFirstFetchThatReadsTheNaNFlagsRunsInOneTransactionWithThem() throws {
        let records = LogRecords()
        try logEverything(to: records) {
            let name = "nan-statements-\(UUID().uuidString)"
            let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(name, isStoredInMemoryOnly: true))
            let context = ModelContext(container)
            let opened = records.all.count
            _ = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.budget > 100 }))

            let statements = records.all.dropFirst(opened).filter { $0.metadata["store"] == .string(name) && $0.message == "Slow statement" }
            #expect(statements.map { "\($0.metadata["sql"] ?? "")" } == [
                "BEGIN DEFERRED TRANSACTION",
                #"SELECT "key", "value" FROM "osd_metadata" WHERE "key" IN ('nanColumns', 'signedZeroColumns')"#,
                #"SELECT "Trip"."Z_PK", "Trip"."name", "Trip"."destination", "Trip"."startDate", "Trip"."budget", "Trip"."notes" FROM "Trip" WHERE ("Trip"."budget" > ?) ORDER BY "Trip"."Z_PK""#,
                "COMMIT TRANSACTION",
            ])
        }
    }

    /// Runs `body` with the library's log going to `records` and every operation counting as slow,
    /// then puts the process-wide defaults back.
    private func logEverything(to records: LogRecords, _ body: () throws -> Void) rethrows {
        ModelContainer.logger = Logger(label: "test") { _ in records }
        ModelContainer.slowOperationThreshold = .zero
        defer {
            ModelContainer.logger = Logger(label: "OpenSwiftData") { _ in SwiftLogNoOpLogHandler() }
            ModelContainer.slowOperationThreshold = .seconds(1)
        }
        try body()
    }

    @Test func migrationsLogEachStageAndTheVersionReached() throws {
        let records = LogRecords()
        ModelContainer.logger = Logger(label: "test") { _ in records }
        defer { ModelContainer.logger = Logger(label: "OpenSwiftData") { _ in SwiftLogNoOpLogHandler() } }
        let name = "migrated-\(UUID().uuidString)"
        let migrator = try SchemaMigrator(schema: Schema(versionedSchema: PlannedV3.self), plan: PlannedBooks.self, storeName: name)
        try migrator.migrate(RecordingMigrationTarget(stored: StoredSchema(Schema(versionedSchema: PlannedV1.self))))

        let mine = records.all.filter { $0.metadata["store"] == .string(name) }
        #expect(mine.map(\.message) == ["Migrating store", "Migrating store", "Migrated store"])
        #expect(mine.map(\.level) == [.info, .info, .info])
        #expect(mine.compactMap { $0.metadata["step"] } == ["custom 1.0.0 → 2.0.0", "lightweight 2.0.0 → 3.0.0"])
        #expect(mine.compactMap { $0.metadata["stage"] } == ["1/2", "2/2"])
        #expect(mine[2].metadata["version"] == "3.0.0")
    }

    @Test func theDefaultLoggerDiscardsEverything() {
        #expect(ModelContainer.logger.handler is SwiftLogNoOpLogHandler)
        #expect(ModelContainer.slowOperationThreshold == .seconds(1))
    }
}

/// A log handler that keeps what it is given.
final class LogRecords: LogHandler, Sendable {
    struct Record: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
    }

    private let records = Mutex<[Record]>([])
    var all: [Record] { records.withLock { $0 } }

    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }

    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }

    subscript(metadataKey _: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        records.withLock { $0.append(Record(level: event.level, message: event.message.description, metadata: event.metadata ?? [:])) }
    }
}
