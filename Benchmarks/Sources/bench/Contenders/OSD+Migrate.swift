import Foundation
import JSONStore
import OpenSwiftData

/// Version 1 of the migrated items.
enum BenchItemsV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [BenchItem.self] }

    @Model final class BenchItem {
        var title: String
        var price: Double
        init(title: String, price: Double) {
            self.title = title
            self.price = price
        }
    }
}

/// Version 2: a `tag` with a default, which a lightweight stage adds.
enum BenchItemsV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [BenchItem.self] }

    @Model final class BenchItem {
        var title: String
        var price: Double
        var tag: String = "none"
        init(title: String, price: Double) {
            self.title = title
            self.price = price
        }
    }
}

/// Version 1.1: version 1's shape, its titles upper-cased by a custom stage.
enum BenchItemsV1Upper: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 1, 0)
    static var models: [any PersistentModel.Type] { [BenchItem.self] }

    @Model final class BenchItem {
        var title: String
        var price: Double
        init(title: String, price: Double) {
            self.title = title
            self.price = price
        }
    }
}

enum BenchAddPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BenchItemsV1.self, BenchItemsV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: BenchItemsV1.self, toVersion: BenchItemsV2.self)] }
}

enum BenchRewritePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BenchItemsV1.self, BenchItemsV1Upper.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: BenchItemsV1.self, toVersion: BenchItemsV1Upper.self, willMigrate: nil, didMigrate: { context in
            for item in try context.fetch(FetchDescriptor<BenchItemsV1Upper.BenchItem>()) { item.title = item.title.uppercased() }
        })]
    }
}

/// Version 1 alone, to write the store the migrations start from.
enum BenchSeedPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BenchItemsV1.self] }
    static var stages: [MigrationStage] { [] }
}

/// Each migration is the opening of a `ModelContainer` with the plan, then a count through it.
final class OSDMigrate: MigrateSubject {
    private let store: OSDStore
    private let directory: ScratchDirectory

    init(_ store: OSDStore, _ directory: ScratchDirectory) throws {
        self.store = store
        self.directory = directory
    }

    private func container(_ schema: any VersionedSchema.Type, _ plan: any SchemaMigrationPlan.Type) throws -> ModelContainer {
        let schema = Schema(versionedSchema: schema)
        return switch store {
        case .sqlite: try ModelContainer(for: schema, migrationPlan: plan, configurations: [ModelConfiguration(url: directory.file("osd.store"))])
        case .inMemory, .sampleRows: throw UsageError("the migrate workloads need a store file: osd or osd-json")
        case .json: try ModelContainer(for: schema, migrationPlan: plan, configurations: [
            JSONStoreConfiguration(name: "bench", schema: schema, url: directory.file("osd.json"), outputFormatting: .compact),
        ])
        }
    }

    func seed(count: Int) throws {
        let context = ModelContext(try container(BenchItemsV1.self, BenchSeedPlan.self))
        for index in 0..<count { context.insert(BenchItemsV1.BenchItem(title: "item \(index)", price: Double(index))) }
        try context.save()
    }

    func addAttribute() throws -> Int {
        let context = ModelContext(try container(BenchItemsV2.self, BenchAddPlan.self))
        return try context.fetchCount(FetchDescriptor<BenchItemsV2.BenchItem>(predicate: #Predicate { $0.tag == "none" }))
    }

    func rewriteTitles() throws -> Int {
        let context = ModelContext(try container(BenchItemsV1Upper.self, BenchRewritePlan.self))
        return try context.fetchCount(FetchDescriptor<BenchItemsV1Upper.BenchItem>(predicate: #Predicate { $0.title.starts(with: "ITEM ") }))
    }
}
