import Foundation
import OpenSwiftData
import Synchronization

/// The current trips schema: ``Trip``, ``BucketListItem`` and ``LivingAccommodation``, with the
/// budget in whole cents.
public enum TripsSchemaV2: VersionedSchema {
    /// 2.0.0.
    public static let versionIdentifier = Schema.Version(2, 0, 0)
    /// The current model types.
    public static var models: [any PersistentModel.Type] { [Trip.self, BucketListItem.self, LivingAccommodation.self] }
}

/// How a trips store written by an earlier `trips` reaches ``TripsSchemaV2``.
///
/// Version 1 kept a trip's budget as a `Double`; version 2 keeps `budgetCents`, an `Int`. A type
/// change under a new name cannot be inferred, so the stage is custom: `willMigrate` reads every
/// version 1 budget (keyed by the trip's unique name and start date), the schema change drops
/// `budget` and adds `budgetCents` (0), and `didMigrate` writes each budget back in cents.
public enum TripsMigrationPlan: SchemaMigrationPlan {
    /// Version 1, then version 2.
    public static var schemas: [any VersionedSchema.Type] { [TripsSchemaV1.self, TripsSchemaV2.self] }
    /// The one custom stage from version 1 to version 2.
    public static var stages: [MigrationStage] { [budgetInCents] }

    /// Version 1 → 2: each trip's `budget` becomes `budgetCents`, rounded to the nearest cent.
    public static let budgetInCents = MigrationStage.custom(
        fromVersion: TripsSchemaV1.self, toVersion: TripsSchemaV2.self,
        willMigrate: { context in
            var budgets: [TripKey: Int] = [:]
            for trip in try context.fetch(FetchDescriptor<TripsSchemaV1.Trip>()) where trip.budget != 0 {
                budgets[TripKey(name: trip.name, startDate: trip.startDate)] = try cents(trip.budget, of: trip.name)
            }
            carried.withLock { $0 = budgets }
        },
        didMigrate: { context in
            let budgets = carried.withLock { budgets in defer { budgets = [:] }; return budgets }
            guard !budgets.isEmpty else { return }
            for trip in try context.fetch(FetchDescriptor<Trip>()) {
                if let cents = budgets[TripKey(name: trip.name, startDate: trip.startDate)] { trip.budgetCents = cents }
            }
        })

    /// A version 1 budget in cents; throws for one no `Int` of cents holds (written by hand, or
    /// not finite), so the migration stops with the store unchanged instead of trapping.
    static func cents(_ budget: Double, of name: String) throws -> Int {
        let cents = (budget * 100).rounded()
        guard cents.isFinite, let exact = Int(exactly: cents) else {
            throw TripsMigrationError(description:
                "The trip '\(name)' has a budget of \(budget), which cannot be kept in cents. Set a smaller budget with the trips version that wrote the store, then open it again.")
        }
        return exact
    }

    /// What identifies a trip in both versions: its `#Unique` key.
    struct TripKey: Hashable {
        let name: String
        let startDate: Date
    }

    /// Version 1's budgets, from `willMigrate` to `didMigrate` of the same migration.
    private static let carried = Mutex<[TripKey: Int]>([:])
}

/// Why ``TripsMigrationPlan`` could not migrate a store; the store stays at version 1.
public struct TripsMigrationError: Error, CustomStringConvertible {
    /// What stopped the migration and how to fix it.
    public let description: String
}
