import Foundation
import OpenSwiftData

@Model final class Shelf {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Volume.shelf) var volumes: [Volume] = []

    init(name: String) { self.name = name }
}

@Model final class Volume {
    var title: String
    var shelf: Shelf?

    init(title: String) { self.title = title }
}

/// The graph built in one context and saved once, either way.
final class OSDGraphAppend: GraphAppendSubject {
    private let container: ModelContainer

    init(_ store: OSDStore, _ directory: ScratchDirectory) throws {
        container = try store.container(for: [Shelf.self, Volume.self], in: directory)
    }

    func assign(parents: Int, children: Int) throws -> Int {
        let context = ModelContext(container)
        for parent in 0..<parents {
            let shelf = Shelf(name: "shelf \(parent)")
            context.insert(shelf)
            shelf.volumes = (0..<children).map { Volume(title: "volume \($0)") }
        }
        try context.save()
        return try context.fetchCount(FetchDescriptor<Volume>())
    }

    func append(parents: Int, children: Int) throws -> Int {
        let context = ModelContext(container)
        for parent in 0..<parents {
            let shelf = Shelf(name: "shelf \(parent)")
            context.insert(shelf)
            for child in 0..<children { shelf.volumes.append(Volume(title: "volume \(child)")) }
        }
        try context.save()
        return try context.fetchCount(FetchDescriptor<Volume>())
    }
}
