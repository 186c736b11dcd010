import Foundation
import OpenSwiftData
import Testing

extension DataStoreConformance.Check {
    /// Schema migrations (``SchemaMigrator``) on the kit's `ConformanceNote` versions. A store that
    /// is not persistent opens every container empty, so it only has to accept sound plans and
    /// refuse contradicting ones.
    static let migrations: [Self] = [
        migration("aPlanRunsItsLightweightAndCustomStagesInOrder") { harness in
            try harness.saveNotesV1()
            let notes = try harness.notesV3(plan: ConformanceNotesPlan.self)
            guard harness.capabilities.contains(.persistent) else {
                #expect(notes.isEmpty)
                return
            }
            #expect(notes.map(\.heading) == ["Alpha", "Beta", "Gamma"], "renamed through originalName; the worse Alpha removed in willMigrate")
            #expect(notes.map(\.body) == ["better alpha", "beta body here now", "gamma"])
            #expect(notes.map(\.rating) == [5, 0, 2], "willMigrate gave the unrated note 0 before rating became non-optional")
            #expect(notes.map(\.tag) == ["none", "none", "none"], "the added attribute holds its default")
            #expect(notes.map(\.wordCount) == [2, 4, 1], "didMigrate ran over V3's types")
            let again = try harness.notesV3(plan: ConformanceNotesPlan.self)
            #expect(again.map(\.persistentModelID) == notes.map(\.persistentModelID), "a migrated store reopens as it is")
            #expect(again.map(\.wordCount) == [2, 4, 1])
        },
        migration("aRenameThroughOriginalNameKeepsTheValues") { harness in
            try harness.saveNotesV1()
            let container = try harness.makeContainer(ConformanceNotesV2.self, plan: ConformanceNotesPlanToV2.self)
            let notes = try ModelContext(container).fetch(FetchDescriptor<ConformanceNotesV2.ConformanceNote>(sortBy: [SortDescriptor(\.body)]))
            guard harness.capabilities.contains(.persistent) else {
                #expect(notes.isEmpty)
                return
            }
            #expect(notes.map(\.heading) == ["Beta", "Alpha", "Alpha", "Gamma"])
            #expect(notes.map(\.rating) == [nil, 5, 3, 2])
            #expect(notes.map(\.tag) == ["none", "none", "none", "none"])
        },
        migration("aStoreOfAVersionThePlanDoesNotListIsRefused") { harness in
            try harness.saveNotesV1()
            _ = try harness.notesV3(plan: ConformanceNotesPlan.self)
            guard harness.capabilities.contains(.persistent) else {
                _ = try harness.makeContainer(ConformanceNotesV2.self, plan: ConformanceNotesPlanToV2.self)
                return
            }
            #expect(throws: SwiftDataError.unknownDataStoreSchema) {
                try harness.makeContainer(ConformanceNotesV2.self, plan: ConformanceNotesPlanToV2.self)
            }
            #expect(try harness.notesV3(plan: ConformanceNotesPlan.self).map(\.heading) == ["Alpha", "Beta", "Gamma"], "the refused store still opens at its version")
        },
        migration("aStoreOfALaterVersionIsRefusedWithoutAStageBack") { harness in
            try harness.saveNotesV1()
            _ = try harness.notesV3(plan: ConformanceNotesPlan.self)
            guard harness.capabilities.contains(.persistent) else {
                _ = try harness.makeContainer(ConformanceNotesV2.self, plan: ConformanceNotesPlanAtV2.self)
                return
            }
            #expect(throws: SwiftDataError.backwardMigration) {
                try harness.makeContainer(ConformanceNotesV2.self, plan: ConformanceNotesPlanAtV2.self)
            }
            #expect(try harness.notesV3(plan: ConformanceNotesPlan.self).map(\.rating) == [5, 0, 2])
        },
        migration("aDowngradePlanRunsItsStageBack") { harness in
            try harness.saveNotesV1()
            _ = try harness.notesV3(plan: ConformanceNotesPlan.self)
            let container = try harness.makeContainer(ConformanceNotesV2.self, plan: ConformanceNotesDowngradePlan.self)
            let notes = try ModelContext(container).fetch(FetchDescriptor<ConformanceNotesV2.ConformanceNote>(sortBy: [SortDescriptor(\.heading)]))
            guard harness.capabilities.contains(.persistent) else {
                #expect(notes.isEmpty)
                return
            }
            #expect(notes.map(\.heading) == ["Alpha", "Beta", "Gamma"])
            #expect(notes.map(\.rating) == [5, 0, 2])
        },
        migration("anImpossibleInferredMigrationLeavesTheStoreUntouched") { harness in
            try harness.saveNotesV1()
            let before = try harness.storedBytes()
            // Without a plan: Beta's nil rating cannot become a non-optional Int.
            let refused = Result { try harness.makeContainer(ConformanceNotesV3.self, plan: nil) }
            guard harness.capabilities.contains(.persistent) else {
                #expect(throws: Never.self) { try refused.get() }
                return
            }
            #expect(throws: (any Error).self) { try refused.get() }
            #expect(try harness.storedBytes() == before, "the store's files are byte for byte as they were")
            let container = try harness.makeContainer(ConformanceNotesV1.self, plan: nil)
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<ConformanceNotesV1.ConformanceNote>()) == 4)
        },
        migration("aStageThatFailsLeavesTheStoreAtItsVersion") { harness in
            try harness.saveNotesV1()
            let before = try harness.storedBytes()
            let failed = Result { try harness.makeContainer(ConformanceNotesV2.self, plan: ConformanceNotesFailingPlan.self) }
            guard harness.capabilities.contains(.persistent) else {
                #expect(throws: Never.self) { try failed.get() }
                return
            }
            #expect(throws: ConformanceMigrationAbort()) { try failed.get() }
            #expect(try harness.storedBytes() == before, "willMigrate's save went with the failed migration")
            let container = try harness.makeContainer(ConformanceNotesV1.self, plan: ConformanceNotesPlanV1.self)
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<ConformanceNotesV1.ConformanceNote>()) == 4, "still V1, with every note")
        },
        migration("aPlanThatContradictsItselfIsRefused") { harness in
            #expect(throws: SwiftDataError.loadIssueModelContainer) {
                try harness.makeContainer(ConformanceNotesV3.self, plan: ConformanceNotesBrokenPlan.self)
            }
        },
        migration("aNewStoreOpensAtThePlansCurrentVersion") { harness in
            do {
                let context = ModelContext(try harness.makeContainer(ConformanceNotesV3.self, plan: ConformanceNotesPlan.self))
                context.insert(ConformanceNotesV3.ConformanceNote(heading: "Delta", body: "d", rating: 1))
                try context.save()
            }
            let notes = try harness.notesV3(plan: ConformanceNotesPlan.self)
            #expect(notes.map(\.heading) == (harness.capabilities.contains(.persistent) ? ["Delta"] : []), "no stage ran on a store created at V3")
        },
    ]

    /// One migration check at a time in the process: every version's class is named
    /// `ConformanceNote`, and the entity name resolves to one version's type at a time (the one
    /// being migrated), as it does while an app migrates at launch.
    private static func migration(_ name: String, _ body: @escaping @Sendable (ConformanceHarness) throws -> Void) -> Self {
        Self(name) { harness in try migrationLock.withLock { try body(harness) } }
    }

    private static let migrationLock = NSLock()
}

extension ConformanceHarness {
    /// A container for one version's models on the check's location, opened with `plan`.
    func makeContainer(_ version: any VersionedSchema.Type, plan: (any SchemaMigrationPlan.Type)?) throws -> ModelContainer {
        let schema = Schema(versionedSchema: version)
        return try ModelContainer(for: schema, migrationPlan: plan, configurations: [kit.makeConfiguration(schema, location)])
    }

    /// A V1 store: two notes titled Alpha (rated 3 and 5), an unrated Beta, Gamma rated 2.
    func saveNotesV1() throws {
        let context = ModelContext(try makeContainer(ConformanceNotesV1.self, plan: ConformanceNotesPlanV1.self))
        for (title, body, rating) in [("Alpha", "first alpha note", 3), ("Alpha", "better alpha", 5), ("Beta", "beta body here now", nil), ("Gamma", "gamma", 2)] {
            context.insert(ConformanceNotesV1.ConformanceNote(title: title, body: body, rating: rating))
        }
        try context.save()
    }

    /// The notes of a container opened at V3 with `plan`, by heading.
    func notesV3(plan: any SchemaMigrationPlan.Type) throws -> [ConformanceNotesV3.ConformanceNote] {
        let container = try makeContainer(ConformanceNotesV3.self, plan: plan)
        return try ModelContext(container).fetch(FetchDescriptor<ConformanceNotesV3.ConformanceNote>(sortBy: [SortDescriptor(\.heading)]))
    }

    /// What the store keeps (``DataStoreConformance/StoredContents``); by default the contents
    /// of every file under the location, by name, SQLite's `-wal` and `-shm` files, which only
    /// mirror the database while a connection is open, left out.
    func storedBytes() throws -> [String: Data] {
        if let storedContents = kit.storedContents { return try storedContents(location) }
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: location, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true,
                  !url.lastPathComponent.hasSuffix("-wal"), !url.lastPathComponent.hasSuffix("-shm") else { continue }
            files[url.lastPathComponent] = try Data(contentsOf: url)
        }
        return files
    }
}
