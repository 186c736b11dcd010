import Foundation
import OpenSwiftData

/// Opening is a new `ModelContainer` and context on the file and a `fetchCount`; saving one
/// change is a property set on a fetched model and `save()`.
final class OSDReopen: ReopenSubject {
    private let store: OSDStore
    private let directory: ScratchDirectory
    private var container: ModelContainer?
    private var context: ModelContext?
    private var picked: User?

    init(_ store: OSDStore, _ directory: ScratchDirectory) throws {
        self.store = store
        self.directory = directory
    }

    func create(_ users: [UserRow]) throws {
        _ = try OSDUsers(store, directory, unique: false).insert(users)
    }

    func load() throws -> Int {
        picked = nil
        context = nil
        container = nil
        let container = try store.container(for: [User.self], in: directory)
        let context = ModelContext(container)
        self.container = container
        self.context = context
        return try context.fetchCount(FetchDescriptor<User>())
    }

    func pick(_ id: UUID) throws {
        var descriptor = FetchDescriptor<User>(predicate: #Predicate { $0.id == id })
        descriptor.fetchLimit = 1
        picked = try context!.fetch(descriptor).first
    }

    func saveOne(age: Int) throws -> Int {
        picked!.age = age
        let changed = context!.changedModelsArray.count
        try context!.save()
        return changed
    }
}
