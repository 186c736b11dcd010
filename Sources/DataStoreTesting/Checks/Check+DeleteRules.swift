import Foundation
import OpenSwiftData
import Testing

extension DataStoreConformance.Check {
    /// Delete rules apply when a model is deleted, before any save, to saved and inserted models,
    /// on a to-one as on a to-many.
    static let deleteRules: [Self] = [
        Self("cascadeAndNullifyApplyBeforeTheSave") { harness in
            let container = try harness.makeContainer()
            try saveLibrary(in: container)
            let context = ModelContext(container)
            let ann = try author("Ann", in: context)
            context.delete(ann)

            #expect(try context.fetch(FetchDescriptor<ConformanceAuthor>()).map(\.name) == ["Bob"])
            #expect(try context.fetchCount(FetchDescriptor<ConformanceAuthor>()) == 1)
            #expect(try titles(in: context) == ["Edited"], "the cascaded books are gone before the save")
            #expect(try context.fetchCount(FetchDescriptor<ConformanceBook>()) == 1)
            let edited = try book("Edited", in: context)
            #expect(edited.editor == nil, "nullify clears the to-one side")
            #expect(edited.author?.name == "Bob")
            let essay = try genre("essay", in: context)
            #expect(essay.books.map(\.title) == ["Edited"], "a cascaded book leaves the many-to-many")
            #expect(try context.fetchCount(FetchDescriptor<ConformanceSketch>()) == 1, "noAction leaves the sketch")
            #expect(Set(context.deletedModelsArray.map { "\(type(of: $0))" }) == ["ConformanceAuthor", "ConformanceBook"])
            #expect(context.deletedModelsArray.count == 3)
            try context.save()

            let reader = ModelContext(container)
            #expect(try reader.fetch(FetchDescriptor<ConformanceAuthor>()).map(\.name) == ["Bob"])
            #expect(try titles(in: reader) == ["Edited"])
            #expect(try book("Edited", in: reader).editor == nil)
            #expect(try genre("essay", in: reader).books.map(\.title) == ["Edited"])
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceSketch>()) == 1)
        },
        Self("nullifyFromTheToOneSideAppliesBeforeTheSave") { harness in
            let container = try harness.makeContainer()
            try saveLibrary(in: container)
            let context = ModelContext(container)
            let bob = try author("Bob", in: context)
            let ann = try author("Ann", in: context)
            #expect(ann.edited.map(\.title) == ["Edited"])
            context.delete(try book("Edited", in: context))

            #expect(bob.books.isEmpty, "the deleted book leaves its author's to-many")
            #expect(ann.edited.isEmpty, "and its editor's")
            #expect(try genre("essay", in: context).books.map(\.title) == ["First"])
            #expect(try titles(in: context) == ["First", "Second"])
            try context.save()

            let reader = ModelContext(container)
            #expect(try author("Bob", in: reader).books.isEmpty)
            #expect(try author("Ann", in: reader).edited.isEmpty)
            #expect(try author("Ann", in: reader).books.map(\.title).sorted() == ["First", "Second"])
        },
        Self("denyFailsTheSaveAndKeepsTheDeletePending") { harness in
            let container = try harness.makeContainer()
            let setup = ModelContext(container)
            let carl = ConformanceAuthor(name: "Carl")
            carl.awards = [ConformanceAward(name: "Prize")]
            setup.insert(carl)
            try setup.save()

            let context = ModelContext(container)
            let stored = try author("Carl", in: context)
            context.delete(stored)
            #expect(try context.fetchCount(FetchDescriptor<ConformanceAuthor>()) == 0, "the delete itself is pending")
            let error = #expect(throws: PersistenceError.self) { try context.save() }
            #expect(error?.code == .deleteDenied)
            #expect(error?.message.hasSuffix("""
                cannot be deleted: its relationship 'awards' has delete rule .deny and still refers to 1 model; \
                remove them from 'awards' or delete them first.
                """) == true, "the message names the relationship and says what to do")
            #expect(context.deletedModelsArray.count == 1, "a failed save keeps the delete pending")
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<ConformanceAuthor>()) == 1, "the store is as it was")
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<ConformanceAward>()) == 1)

            for award in try context.fetch(FetchDescriptor<ConformanceAward>()) { context.delete(award) }
            try context.save()
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<ConformanceAuthor>()) == 0)
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<ConformanceAward>()) == 0)
        },
        Self("deletingAnInsertedModelAppliesItsDeleteRules") { harness in
            let container = try harness.makeContainer()
            let context = ModelContext(container)
            let dan = ConformanceAuthor(name: "Dan"), eve = ConformanceAuthor(name: "Eve")
            let mentee = ConformanceAuthor(name: "Mentee", mentor: dan)
            let own = ConformanceBook(title: "Own"), edited = ConformanceBook(title: "Edited")
            let essay = ConformanceGenre(name: "essay")
            dan.books = [own]
            own.genres = [essay]
            edited.author = eve
            edited.editor = dan
            dan.sketches = [ConformanceSketch(name: "kept")]
            for model in [dan, eve, mentee] { context.insert(model) }
            context.delete(dan)

            #expect(dan.modelContext == nil && own.modelContext == nil, "never saved: the models are simply dropped")
            #expect(try context.fetch(FetchDescriptor<ConformanceAuthor>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Eve", "Mentee"])
            #expect(try titles(in: context) == ["Edited"])
            #expect(edited.editor == nil)
            #expect(essay.books.isEmpty)
            #expect(mentee.mentor == nil, "a to-one without an inverse lets go of the deleted model")
            try context.save()

            let reader = ModelContext(container)
            #expect(try reader.fetch(FetchDescriptor<ConformanceAuthor>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["Eve", "Mentee"])
            #expect(try titles(in: reader) == ["Edited"])
            #expect(try book("Edited", in: reader).editor == nil)
            #expect(try author("Mentee", in: reader).mentor == nil)
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceSketch>()) == 1)
            #expect(try genre("essay", in: reader).books.isEmpty)
        },
        Self("aToOneWithoutAnInverseReadsNilOnceItsTargetIsDeleted") { harness in
            let container = try harness.makeContainer()
            let setup = ModelContext(container)
            let mentor = ConformanceAuthor(name: "Mentor")
            setup.insert(ConformanceAuthor(name: "Mentee", mentor: mentor))
            try setup.save()

            let context = ModelContext(container)
            let mentee = try author("Mentee", in: context)
            #expect(mentee.mentor?.name == "Mentor")
            context.delete(try author("Mentor", in: context))
            try context.save()
            #expect(mentee.mentor == nil, "in the context that deleted it")
            // Each reader is held while its models are read: a context that goes away lets go of
            // its models' relationships, which then read nil whatever the store holds.
            let reader = ModelContext(container)
            #expect(try author("Mentee", in: reader).mentor == nil, "in a new context")
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceAuthor>()) == 1)
            guard harness.capabilities.contains(.persistent) else { return }
            let reopened = ModelContext(try harness.makeContainer())
            #expect(try author("Mentee", in: reopened).mentor == nil, "after a reopen")
            #expect(try reopened.fetch(FetchDescriptor<ConformanceAuthor>()).map(\.name) == ["Mentee"])
        },
        Self("cascadeOnAToOneDeletesItsTargetAndNoActionLeavesIt") { harness in
            let container = try harness.makeContainer()
            let setup = ModelContext(container)
            setup.insert(ConformanceHouse(name: "Villa", deed: ConformanceDeed(number: 7), shed: ConformanceSketch(name: "shed")))
            setup.insert(ConformanceHouse(name: "Cabin", deed: ConformanceDeed(number: 9)))
            try setup.save()

            let context = ModelContext(container)
            let villa = try #require(try context.fetch(FetchDescriptor<ConformanceHouse>(predicate: #Predicate { $0.name == "Villa" })).first)
            context.delete(villa)
            #expect(try context.fetch(FetchDescriptor<ConformanceDeed>()).map(\.number) == [9], "the cascaded deed is gone before the save")
            #expect(try context.fetch(FetchDescriptor<ConformanceSketch>()).map(\.name) == ["shed"], "noAction leaves the shed")
            #expect(context.deletedModelsArray.count == 2)
            try context.save()

            let reader = ModelContext(container)
            let houses = try reader.fetch(FetchDescriptor<ConformanceHouse>())
            #expect(houses.map(\.name) == ["Cabin"])
            #expect(houses.first?.deed?.number == 9)
            #expect(try reader.fetch(FetchDescriptor<ConformanceDeed>()).map { $0.house?.name } == ["Cabin"])
            #expect(try reader.fetch(FetchDescriptor<ConformanceSketch>()).map(\.name) == ["shed"])
        },
        Self("denyOnAToOneFailsTheSaveUntilItsTargetIsDeleted") { harness in
            let container = try harness.makeContainer()
            let setup = ModelContext(container)
            setup.insert(ConformanceHouse(name: "Villa", deed: ConformanceDeed(number: 7), mortgage: ConformanceAward(name: "loan")))
            try setup.save()

            let context = ModelContext(container)
            let villa = try #require(try context.fetch(FetchDescriptor<ConformanceHouse>()).first)
            context.delete(villa)
            let error = #expect(throws: PersistenceError.self) { try context.save() }
            #expect(error?.code == .deleteDenied)
            #expect(error?.message.contains("its relationship 'mortgage' has delete rule .deny and still refers to 1 model") == true)
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<ConformanceHouse>()) == 1, "the store is as it was")
            #expect(try ModelContext(container).fetchCount(FetchDescriptor<ConformanceDeed>()) == 1)

            context.delete(try #require(villa.mortgage))
            try context.save()
            let reader = ModelContext(container)
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceHouse>()) == 0)
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceDeed>()) == 0)
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceAward>()) == 0)
        },
        Self("cascadeThroughASelfReferenceDeletesTheWholeTree") { harness in
            let container = try harness.makeContainer()
            let setup = ModelContext(container)
            let ada = ConformanceEmployee(name: "Ada")
            setup.insert(ada)
            let bob = ConformanceEmployee(name: "Bob", manager: ada)
            setup.insert(bob)
            setup.insert(ConformanceEmployee(name: "Cy", manager: bob))
            setup.insert(ConformanceEmployee(name: "Dee"))
            try setup.save()

            let context = ModelContext(container)
            context.delete(try #require(try context.fetch(FetchDescriptor<ConformanceEmployee>(predicate: #Predicate { $0.name == "Ada" })).first))
            #expect(try context.fetch(FetchDescriptor<ConformanceEmployee>()).map(\.name) == ["Dee"], "two levels down, before the save")
            try context.save()
            #expect(try ModelContext(container).fetch(FetchDescriptor<ConformanceEmployee>()).map(\.name) == ["Dee"])
        },
    ]

    /// Ann wrote "First" and "Second" and edited "Edited", which Bob wrote; "First" and "Edited"
    /// are essays; Ann keeps a sketch.
    static func saveLibrary(in container: ModelContainer) throws {
        let context = ModelContext(container)
        let ann = ConformanceAuthor(name: "Ann"), bob = ConformanceAuthor(name: "Bob")
        let first = ConformanceBook(title: "First"), second = ConformanceBook(title: "Second"), edited = ConformanceBook(title: "Edited")
        let essay = ConformanceGenre(name: "essay")
        context.insert(ann)
        context.insert(bob)
        ann.books = [first, second]
        bob.books = [edited]
        ann.edited = [edited]
        essay.books = [first, edited]
        context.insert(essay)
        ann.sketches = [ConformanceSketch(name: "draft")]
        try context.save()
    }

    static func author(_ name: String, in context: ModelContext) throws -> ConformanceAuthor {
        try #require(try context.fetch(FetchDescriptor<ConformanceAuthor>(predicate: #Predicate { $0.name == name })).first)
    }

    static func book(_ title: String, in context: ModelContext) throws -> ConformanceBook {
        try #require(try context.fetch(FetchDescriptor<ConformanceBook>(predicate: #Predicate { $0.title == title })).first)
    }

    static func genre(_ name: String, in context: ModelContext) throws -> ConformanceGenre {
        try #require(try context.fetch(FetchDescriptor<ConformanceGenre>(predicate: #Predicate { $0.name == name })).first)
    }

    static func titles(in context: ModelContext) throws -> [String] {
        try context.fetch(FetchDescriptor<ConformanceBook>(sortBy: [SortDescriptor(\.title)])).map(\.title)
    }
}
