import Foundation
import OpenSwiftData
import Testing

extension DataStoreConformance.Check {
    /// Inserting a model inserts every new model it reaches, through every relationship shape.
    static let graphInsert: [Self] = [
        Self("aGraphInsertedThroughItsRootJoinsTheContextInEveryShape") { harness in
            try insertGraphThroughItsRoot(in: try harness.makeContainer())
        },
        Self("aGraphInsertedThroughItsRootSavesWhenTheContainerListsOnlyTheRoot") { harness in
            let container = try harness.makeContainer(for: [ConformanceRoot.self])
            #expect(container.schema.entities.map(\.name).sorted() == ["ConformanceLabel", "ConformanceLeaf", "ConformanceRoot"])
            try insertGraphThroughItsRoot(in: container)
        },
        Self("aGraphInsertedThroughAChildJoinsTheContext") { harness in
            let container = try harness.makeContainer()
            let context = ModelContext(container)
            let tag = ConformanceGenre(name: "essay")
            let author = ConformanceAuthor(name: "Ann")
            let book = ConformanceBook(title: "Notes")
            book.author = author
            book.genres = [tag]
            context.insert(book)
            #expect(author.modelContext === context && tag.modelContext === context)
            #expect(author.books.map(\.title) == ["Notes"] && tag.books.map(\.title) == ["Notes"])
            try context.save()

            let reader = ModelContext(container)
            let authors = try reader.fetch(FetchDescriptor<ConformanceAuthor>())
            #expect(authors.map(\.name) == ["Ann"])
            #expect(authors.first?.books.map(\.title) == ["Notes"])
            #expect(authors.first?.books.first?.genres.map(\.name) == ["essay"])
        },
        Self("aModelAssignedToAnInsertedModelJoinsTheContext") { harness in
            let container = try harness.makeContainer()
            let context = ModelContext(container)
            let root = ConformanceRoot(name: "root", one: ConformanceLeaf(name: "one"))
            context.insert(root)
            let late = ConformanceLabel(name: "late"), later = ConformanceLabel(name: "later")
            root.labels.append(late)
            root.maybeLabels = [later]
            root.maybeOne = ConformanceLeaf(name: "late leaf")
            #expect(late.modelContext === context && later.modelContext === context)
            #expect(root.maybeOne?.modelContext === context)
            try context.save()

            let reader = ModelContext(container)
            let stored = try #require(try reader.fetch(FetchDescriptor<ConformanceRoot>()).first)
            #expect(stored.labels.map(\.name) == ["late"])
            #expect(stored.maybeLabels?.map(\.name) == ["later"])
            #expect(stored.maybeOne?.name == "late leaf")
        },
    ]

    /// Inserts a root reaching every relationship shape, saves, and reads the graph back.
    private static func insertGraphThroughItsRoot(in container: ModelContainer) throws {
        let context = ModelContext(container)
        let red = ConformanceLabel(name: "red"), blue = ConformanceLabel(name: "blue")
        let green = ConformanceLabel(name: "green"), deep = ConformanceLabel(name: "deep")
        let one = ConformanceLeaf(name: "one"), maybeOne = ConformanceLeaf(name: "maybeOne")
        let first = ConformanceLeaf(name: "first", label: deep), second = ConformanceLeaf(name: "second")
        let maybeMany = ConformanceLeaf(name: "maybeMany")
        let root = ConformanceRoot(name: "root", one: one, maybeOne: maybeOne, many: [first, second],
                                   maybeMany: [maybeMany], labels: [red, blue], maybeLabels: [green])
        context.insert(root)

        let reached: [any PersistentModel] = [one, maybeOne, first, second, maybeMany, red, blue, green, deep]
        #expect(reached.filter { $0.modelContext !== context }.count == 0, "every model reached from the root joins its context")
        #expect(context.insertedModelsArray.count == 10)
        #expect(first.parent === root && second.parent === root, "the to-many's inverse is set")
        #expect(red.roots.map(\.name) == ["root"] && blue.roots.map(\.name) == ["root"], "the many-to-many's inverse is set")
        #expect(green.maybeRoots?.map(\.name) == ["root"], "the optional many-to-many's inverse is set")
        try context.save()

        let reader = ModelContext(container)
        let roots = try reader.fetch(FetchDescriptor<ConformanceRoot>())
        #expect(roots.count == 1)
        let stored = try #require(roots.first)
        #expect(stored.one.name == "one")
        #expect(stored.maybeOne?.name == "maybeOne")
        #expect(stored.many.map(\.name).sorted() == ["first", "second"])
        #expect(stored.maybeMany?.map(\.name) == ["maybeMany"])
        #expect(stored.labels.map(\.name).sorted() == ["blue", "red"])
        #expect(stored.maybeLabels?.map(\.name) == ["green"])
        #expect(stored.many.first { $0.name == "first" }?.label?.name == "deep", "two levels down")
        #expect(try reader.fetchCount(FetchDescriptor<ConformanceLeaf>()) == 5)
        let labels = try reader.fetch(FetchDescriptor<ConformanceLabel>(sortBy: [SortDescriptor(\.name)]))
        #expect(labels.map(\.name) == ["blue", "deep", "green", "red"])
        #expect(labels.map { $0.roots.map(\.name) } == [["root"], [], [], ["root"]])
        #expect(labels.map { $0.maybeRoots?.map(\.name) ?? [] } == [[], [], ["root"], []])
    }
}
