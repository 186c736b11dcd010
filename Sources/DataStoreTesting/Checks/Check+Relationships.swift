import Foundation
import OpenSwiftData
import Testing

extension DataStoreConformance.Check {
    /// That a graph survives save and fetch; inserting graphs and delete rules have checks of their
    /// own (``graphInsert``, ``deleteRules``, ``batchDelete``).
    static let relationships: [Self] = [
        Self("aGraphOfModelsRoundTripsThroughSaveAndFetch") { harness in
            let container = try harness.makeContainer()
            let context = ModelContext(container)
            let rex = ConformancePet(name: "Rex")
            let tom = ConformancePet(name: "Tom", friend: rex)
            let kit = ConformancePet(name: "Kit")
            let ann = ConformanceOwner(name: "Ann", pets: [rex, tom, kit])
            let bob = ConformanceOwner(name: "Bob")
            let lonely = ConformanceItem(name: "lonely")
            let owned = ConformanceItem(name: "owned", owner: ann)
            for model in [rex, tom, kit] { context.insert(model) }
            for model in [ann, bob] { context.insert(model) }
            for model in [lonely, owned] { context.insert(model) }
            rex.friend = kit
            kit.friend = rex  // a cycle between models inserted in one save
            try context.save()

            let reader = ModelContext(container)
            let owners = try reader.fetch(FetchDescriptor<ConformanceOwner>(sortBy: [SortDescriptor(\.name)]))
            #expect(owners.map(\.name) == ["Ann", "Bob"])
            #expect(owners.first?.pets.map(\.name).sorted() == ["Kit", "Rex", "Tom"], "to-many")
            #expect(owners.last?.pets.isEmpty == true, "empty to-many")
            let pets = try reader.fetch(FetchDescriptor<ConformancePet>(sortBy: [SortDescriptor(\.name)]))
            #expect(pets.map { $0.friend?.name } == ["Rex", "Kit", "Rex"], "to-one, including a cycle")
            let items = try reader.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.name)]))
            #expect(items.map { $0.owner?.name } == [nil, "Ann"], "nil and set to-one")
            #expect(items.last?.owner?.persistentModelID == ann.persistentModelID, "references carry the permanent identifiers")

            // An update that moves a model, and refers to a model inserted in the same save.
            let editor = ModelContext(container)
            let stored = try editor.fetch(FetchDescriptor<ConformanceOwner>(sortBy: [SortDescriptor(\.name)]))
            let moved = try #require(stored[0].pets.first { $0.name == "Tom" })
            stored[0].pets.removeAll { $0.name == "Tom" }
            stored[1].pets = [moved]
            let newcomer = ConformancePet(name: "Max")
            editor.insert(newcomer)
            stored[0].pets.append(newcomer)
            moved.friend = newcomer
            try editor.save()

            let after = ModelContext(container)
            let owners2 = try after.fetch(FetchDescriptor<ConformanceOwner>(sortBy: [SortDescriptor(\.name)]))
            #expect(owners2.map { $0.pets.map(\.name).sorted() } == [["Kit", "Max", "Rex"], ["Tom"]])
            let tom2 = try after.fetch(FetchDescriptor<ConformancePet>(predicate: #Predicate { $0.name == "Tom" }))
            #expect(tom2.first?.friend?.name == "Max", "a reference to a model inserted in the same save")
            #expect(tom2.first?.friend?.persistentModelID.storeIdentifier != nil)
        },
        Self("aSelfReferenceWithAnInverseRoundTripsItsCycleAndMoves") { harness in
            let container = try harness.makeContainer()
            let context = ModelContext(container)
            let ada = ConformanceEmployee(name: "Ada"), bob = ConformanceEmployee(name: "Bob"), cy = ConformanceEmployee(name: "Cy")
            context.insert(ada)
            bob.manager = ada
            cy.manager = bob
            ada.manager = cy  // a cycle through the entity's own one-to-many
            #expect(context.insertedModelsArray.count == 3, "the inverse brings the reports into the context")
            try context.save()

            let reader = ModelContext(container)
            let people = try reader.fetch(FetchDescriptor<ConformanceEmployee>(sortBy: [SortDescriptor(\.name)]))
            #expect(people.map(\.name) == ["Ada", "Bob", "Cy"])
            #expect(people.map { $0.manager?.name } == ["Cy", "Ada", "Bob"])
            #expect(people.map { $0.reports.map(\.name) } == [["Bob"], ["Cy"], ["Ada"]])

            people[2].manager = people[0]
            try reader.save()
            let fresh = ModelContext(container)
            let after = try fresh.fetch(FetchDescriptor<ConformanceEmployee>(sortBy: [SortDescriptor(\.name)]))
            #expect(after.map { $0.manager?.name } == ["Cy", "Ada", "Ada"])
            #expect(after.map { $0.reports.map(\.name).sorted() } == [["Bob", "Cy"], [], ["Ada"]])
        },
        // SwiftData keeps a to-many as a set: the kit asks a store for the members, not their order.
        Self("aToManyKeepsItsMembersWhateverTheOrderAssigned") { harness in
            let container = try harness.makeContainer()
            let context = ModelContext(container)
            let ann = ConformanceOwner(name: "Ann")
            let cat = ConformancePet(name: "Cat"), ant = ConformancePet(name: "Ant"), bee = ConformancePet(name: "Bee")
            context.insert(ann)
            ann.pets = [cat, ant, bee]
            try context.save()
            #expect(ann.pets.map(\.name) == ["Cat", "Ant", "Bee"], "the saving context keeps the array it was given")

            let editor = ModelContext(container)
            let stored = try #require(try editor.fetch(FetchDescriptor<ConformanceOwner>()).first)
            #expect(stored.pets.map(\.name).sorted() == ["Ant", "Bee", "Cat"])
            stored.pets.reverse()
            stored.pets.insert(ConformancePet(name: "Dog"), at: 1)
            stored.pets.removeAll { $0.name == "Ant" }
            try editor.save()

            let reader = ModelContext(container)
            let owner = try #require(try reader.fetch(FetchDescriptor<ConformanceOwner>()).first)
            #expect(owner.pets.map(\.name).sorted() == ["Bee", "Cat", "Dog"], "each member once, the removed one gone")
            #expect(try reader.fetch(FetchDescriptor<ConformancePet>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Ant", "Bee", "Cat", "Dog"],
                    "removing a member of a to-many without an inverse keeps the model")
        },
        Self("aToManyEditedFromBothEndsHoldsEachModelOnce") { harness in
            let container = try harness.makeContainer()
            let context = ModelContext(container)
            let ann = ConformanceAuthor(name: "Ann"), essay = ConformanceGenre(name: "essay")
            context.insert(ann)
            context.insert(essay)
            for title in ["A", "B", "C"] {
                let book = ConformanceBook(title: title)
                book.author = ann
                ann.books.append(book)
                book.genres.append(essay)
                essay.books.append(book)
            }
            #expect(ann.books.map(\.title) == ["A", "B", "C"], "a one-to-many set from its to-one, then appended to")
            #expect(essay.books.map(\.title) == ["A", "B", "C"], "a many-to-many appended to from both ends")
            let first = ann.books[0]
            #expect(first.genres.map(\.name) == ["essay"])
            ann.books.append(first)
            ann.books += [first]
            ann.edited = [first, first]
            #expect(ann.books.map(\.title) == ["A", "B", "C"], "appending a member again keeps it where it was")
            #expect(ann.edited.map(\.title) == ["A"], "an array holding a model twice is kept with it once")
            try context.save()

            let editor = ModelContext(container)
            let stored = try author("Ann", in: editor)
            let late = ConformanceBook(title: "D")
            late.author = stored
            stored.books.append(late)
            try editor.save()

            let reader = ModelContext(container)
            let read = try author("Ann", in: reader)
            #expect(read.books.map(\.title).sorted() == ["A", "B", "C", "D"])
            #expect(read.edited.map(\.title) == ["A"])
            #expect(try genre("essay", in: reader).books.map(\.title).sorted() == ["A", "B", "C"])
            #expect(try book("A", in: reader).genres.map(\.name) == ["essay"])
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceBook>()) == 4)
        },
    ]
}
