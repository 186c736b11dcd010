import Foundation
import JSONStore
import OpenSwiftData
import SampleTrips

// The child process of the migration crash loop (.ci/migration_kill_loop.py), over a trips store
// (`sqlite` or `json`) at a path:
//   seed KIND PATH COUNT   writes COUNT version 1 trips; trip i has budget i + 0.25.
//   migrate KIND PATH      prints "migrating", opens the store with TripsMigrationPlan (the loop
//                          kills it meanwhile), then prints "migrated".
//   check KIND PATH COUNT  opens the store at the version it records, without migrating it, and
//                          prints "version V" when it holds exactly the COUNT trips of that
//                          version with their budgets; otherwise says what is wrong and exits 1.

/// Version 1 alone: the first release's plan, which opens a version 1 store as it is.
enum FirstReleasePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [TripsSchemaV1.self] }
    static var stages: [MigrationStage] { [] }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
}

func configuration(_ kind: String, _ url: URL) throws -> any DataStoreConfiguration {
    switch kind {
    case "sqlite": ModelConfiguration(url: url)
    case "json": JSONStoreConfiguration(name: "trips", url: url, outputFormatting: .compact)
    default: throw Failure(description: "the store kind must be sqlite or json, not \(kind)")
    }
}

func storedVersion(_ kind: String, _ url: URL) throws -> Schema.Version? {
    try (kind == "sqlite" ? DefaultStore.storedSchema(at: url) : JSONStore.storedSchema(at: url))?.version
}

func name(_ index: Int) -> String { "trip \(index)" }

func seed(_ kind: String, _ url: URL, count: Int) throws {
    let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: TripsSchemaV1.self), migrationPlan: FirstReleasePlan.self,
                                                  configurations: [configuration(kind, url)]))
    let start = Date(timeIntervalSinceReferenceDate: 0)
    for index in 0..<count {
        context.insert(TripsSchemaV1.Trip(name: name(index), destination: "Loop", startDate: start, endDate: start, budget: Double(index) + 0.25))
    }
    try context.save()
}

func check(_ kind: String, _ url: URL, count: Int) throws -> Schema.Version {
    let version = try storedVersion(kind, url)
    let cents: [String: Int]
    switch version {
    case Schema.Version(1, 0, 0)?:
        let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: TripsSchemaV1.self), migrationPlan: FirstReleasePlan.self,
                                                      configurations: [configuration(kind, url)]))
        cents = Dictionary(try context.fetch(FetchDescriptor<TripsSchemaV1.Trip>()).map { ($0.name, Int($0.budget * 100)) }, uniquingKeysWith: { _, _ in -1 })
    case Schema.Version(2, 0, 0)?:
        let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: TripsSchemaV2.self), migrationPlan: TripsMigrationPlan.self,
                                                      configurations: [configuration(kind, url)]))
        cents = Dictionary(try context.fetch(FetchDescriptor<Trip>()).map { ($0.name, $0.budgetCents) }, uniquingKeysWith: { _, _ in -1 })
    default:
        throw Failure(description: "the store records version \(version.map(\.description) ?? "none"), neither 1.0.0 nor 2.0.0")
    }
    guard cents.count == count else { throw Failure(description: "version \(version!) holds \(cents.count) trips, not \(count)") }
    for index in 0..<count where cents[name(index)] != index * 100 + 25 {
        throw Failure(description: "version \(version!): \(name(index)) has \(cents[name(index)].map(String.init) ?? "no") cents, not \(index * 100 + 25)")
    }
    return version!
}

let arguments = CommandLine.arguments.dropFirst().map { $0 }
do {
    guard arguments.count >= 3 else { throw Failure(description: "usage: MigrationCrashChild seed|migrate|check KIND PATH [COUNT]") }
    let (kind, url) = (arguments[1], URL(fileURLWithPath: arguments[2]))
    let count = arguments.count > 3 ? Int(arguments[3]) ?? 0 : 0
    switch arguments[0] {
    case "seed": try seed(kind, url, count: count)
    case "migrate":
        // Unbuffered: the loop times its kill from this line, after the process has started.
        FileHandle.standardOutput.write(Data("migrating\n".utf8))
        _ = try ModelContainer(for: Schema(versionedSchema: TripsSchemaV2.self), migrationPlan: TripsMigrationPlan.self,
                               configurations: [configuration(kind, url)])
        FileHandle.standardOutput.write(Data("migrated\n".utf8))
    case "check": print("version \(try check(kind, url, count: count))")
    default: throw Failure(description: "unknown mode \(arguments[0]); use seed, migrate or check")
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
