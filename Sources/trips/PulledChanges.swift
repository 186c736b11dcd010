import Foundation
import OpenSwiftData
import SampleTrips

/// What a sync round brought into the local store, read from its history: the transactions the
/// engine saved (under its own author) since the round began, each model counted once by its net
/// change.
struct PulledChanges {
    enum Change: CaseIterable { case added, changed, deleted }

    private var changes: [PersistentIdentifier: Change] = [:]

    /// The newest transaction of the store's history, nil while it has none.
    static func latestToken(_ context: ModelContext) throws -> DefaultHistoryToken? {
        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
        descriptor.fetchLimit = 1
        return try context.fetchHistory(descriptor).first?.token
    }

    init(_ context: ModelContext, after token: DefaultHistoryToken?, author: String) throws {
        let descriptor = token.map { token in
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > token && $0.author == author })
        } ?? HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.author == author })
        for transaction in try context.fetchHistory(descriptor) {
            for change in transaction.changes {
                let model = change.changedPersistentIdentifier
                switch (change, changes[model]) {
                case (.insert, .deleted): changes[model] = .changed
                case (.insert, _): changes[model] = .added
                case (.update, nil): changes[model] = .changed
                case (.update, _): break
                case (.delete, .added): changes[model] = nil
                case (.delete, _): changes[model] = .deleted
                @unknown default: break
                }
            }
        }
    }

    /// `Pulled 2 changes: 1 trip added (#4 Bergen), 1 bucket-list item changed.`
    func summary(catalog: TripCatalog) -> String {
        guard !changes.isEmpty else { return "Nothing new to pull." }
        let entities: [(name: String, noun: String, plural: String)] = [
            (Schema.entityName(for: Trip.self), "trip", "trips"),
            (Schema.entityName(for: BucketListItem.self), "bucket-list item", "bucket-list items"),
            (Schema.entityName(for: LivingAccommodation.self), "stay", "stays"),
        ]
        var parts: [String] = []
        for entity in entities {
            for kind in Change.allCases {
                let models = Set(changes.filter { $0.key.entityName == entity.name && $0.value == kind }.keys)
                guard !models.isEmpty else { continue }
                var part = "\(models.count) \(models.count == 1 ? entity.noun : entity.plural) \(kind)"
                let labels = catalog.trips.filter { models.contains($0.persistentModelID) }.map(catalog.label)
                if !labels.isEmpty { part += " (\(labels.joined(separator: ", ")))" }
                parts.append(part)
            }
        }
        return "Pulled \(Sync.count(changes.count, "change")): \(parts.joined(separator: ", "))."
    }
}
