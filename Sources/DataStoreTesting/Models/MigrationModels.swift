import Foundation
import OpenSwiftData

/// Three versions of one note model, nested in their `VersionedSchema` enums as apps write them:
/// every version's class is `ConformanceNote`, the entity the store keeps across versions.
///
/// - V1: `title`, `body`, an optional `rating`.
/// - V2: `title` renamed `heading` (`originalName`), a new `tag` with a default value.
/// - V3: `rating` non-optional, `heading` unique, a new `wordCount` that `didMigrate` fills.
enum ConformanceNotesV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [ConformanceNote.self] }

    @Model
    final class ConformanceNote {
        var title: String
        var body: String
        var rating: Int?

        init(title: String, body: String, rating: Int?) {
            self.title = title
            self.body = body
            self.rating = rating
        }
    }
}

enum ConformanceNotesV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [ConformanceNote.self] }

    @Model
    final class ConformanceNote {
        @Attribute(originalName: "title") var heading: String
        var body: String
        var rating: Int?
        var tag: String = "none"

        init(heading: String, body: String, rating: Int?) {
            self.heading = heading
            self.body = body
            self.rating = rating
        }
    }
}

enum ConformanceNotesV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [ConformanceNote.self] }

    @Model
    final class ConformanceNote {
        #Unique<ConformanceNote>([\.heading])
        @Attribute(originalName: "title") var heading: String
        var body: String
        var rating: Int
        var tag: String = "none"
        var wordCount: Int = 0

        init(heading: String, body: String, rating: Int) {
            self.heading = heading
            self.body = body
            self.rating = rating
        }
    }
}

/// V1 → V2 lightweight, V2 → V3 custom: `willMigrate` (V2's types) removes notes whose heading
/// repeats, keeping the best rated, and gives unrated notes 0, so the new constraint and the
/// non-optional rating hold; `didMigrate` (V3's types) counts each body's words.
enum ConformanceNotesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ConformanceNotesV1.self, ConformanceNotesV2.self, ConformanceNotesV3.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: ConformanceNotesV1.self, toVersion: ConformanceNotesV2.self), toV3] }

    static let toV3 = MigrationStage.custom(fromVersion: ConformanceNotesV2.self, toVersion: ConformanceNotesV3.self, willMigrate: { context in
        let notes = try context.fetch(FetchDescriptor<ConformanceNotesV2.ConformanceNote>(sortBy: [SortDescriptor(\.heading)]))
        var kept: [String: ConformanceNotesV2.ConformanceNote] = [:]
        for note in notes {
            guard let other = kept[note.heading] else {
                kept[note.heading] = note
                continue
            }
            let (keep, drop) = (note.rating ?? 0) > (other.rating ?? 0) ? (note, other) : (other, note)
            kept[note.heading] = keep
            context.delete(drop)
        }
        for note in kept.values where note.rating == nil { note.rating = 0 }
    }, didMigrate: { context in
        for note in try context.fetch(FetchDescriptor<ConformanceNotesV3.ConformanceNote>()) {
            note.wordCount = note.body.split(separator: " ").count
        }
    })
}

/// V1 alone: an app's first release, which writes V1's record.
enum ConformanceNotesPlanV1: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ConformanceNotesV1.self] }
    static var stages: [MigrationStage] { [] }
}

/// V1 → V2 only: the store ends at V2.
enum ConformanceNotesPlanToV2: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ConformanceNotesV1.self, ConformanceNotesV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: ConformanceNotesV1.self, toVersion: ConformanceNotesV2.self)] }
}

/// The full plan's versions with V2 current: a store at V3 is later, and no stage leads back.
enum ConformanceNotesPlanAtV2: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ConformanceNotesV1.self, ConformanceNotesV2.self, ConformanceNotesV3.self] }
    static var stages: [MigrationStage] { ConformanceNotesPlan.stages }
}

/// A downgrade: V3 back to V2 (the last schema), lightweight.
enum ConformanceNotesDowngradePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ConformanceNotesV3.self, ConformanceNotesV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: ConformanceNotesV3.self, toVersion: ConformanceNotesV2.self)] }
}

/// A plan whose stage names a version it does not list.
enum ConformanceNotesBrokenPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ConformanceNotesV1.self, ConformanceNotesV3.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: ConformanceNotesV2.self, toVersion: ConformanceNotesV3.self)] }
}

/// What ``ConformanceNotesFailingPlan``'s didMigrate throws.
struct ConformanceMigrationAbort: Error, Equatable {}

/// V1 → V2 custom: willMigrate deletes the unrated note and saves, then didMigrate fails, so the
/// whole migration, willMigrate's save included, must not happen.
enum ConformanceNotesFailingPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ConformanceNotesV1.self, ConformanceNotesV2.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: ConformanceNotesV1.self, toVersion: ConformanceNotesV2.self, willMigrate: { context in
            for note in try context.fetch(FetchDescriptor<ConformanceNotesV1.ConformanceNote>()) where note.rating == nil {
                context.delete(note)
            }
            try context.save()
        }, didMigrate: { _ in throw ConformanceMigrationAbort() })]
    }
}
