import Foundation
import OpenSwiftData
import Testing

extension DataStoreConformance.Check {
    /// `delete(model:where:)` follows the delete rules exactly as deleting each model would, in the
    /// store and in the models the context holds.
    static let batchDelete: [Self] = [
        Self("batchDeleteWithAPredicateFollowsEveryDeleteRule") { harness in
            let container = try harness.makeContainer()
            try saveLibrary(in: container)
            let context = ModelContext(container)
            let edited = try book("Edited", in: context)
            let essay = try genre("essay", in: context)
            #expect(edited.editor?.name == "Ann")
            #expect(essay.books.map(\.title).sorted() == ["Edited", "First"])

            try context.delete(model: ConformanceAuthor.self, where: #Predicate { $0.name == "Ann" })
            try context.save()

            #expect(try context.fetch(FetchDescriptor<ConformanceAuthor>()).map(\.name) == ["Bob"])
            #expect(try titles(in: context) == ["Edited"], "cascade")
            #expect(edited.editor == nil, "nullify, in the registered model")
            #expect(essay.books.map(\.title) == ["Edited"], "a cascaded book leaves the many-to-many")
            #expect(try context.fetchCount(FetchDescriptor<ConformanceSketch>()) == 1, "noAction")

            let reader = ModelContext(container)
            #expect(try reader.fetch(FetchDescriptor<ConformanceAuthor>()).map(\.name) == ["Bob"])
            #expect(try titles(in: reader) == ["Edited"])
            #expect(try book("Edited", in: reader).editor == nil)
            #expect(try book("Edited", in: reader).author?.name == "Bob")
            #expect(try genre("essay", in: reader).books.map(\.title) == ["Edited"])
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceSketch>()) == 1)
        },
        Self("batchDeleteWithoutAPredicateFollowsEveryDeleteRule") { harness in
            let container = try harness.makeContainer()
            try saveLibrary(in: container)
            let context = ModelContext(container)
            let essay = try genre("essay", in: context)
            #expect(essay.books.count == 2)

            try context.delete(model: ConformanceAuthor.self)
            try context.save()

            #expect(try context.fetchCount(FetchDescriptor<ConformanceAuthor>()) == 0)
            #expect(try context.fetchCount(FetchDescriptor<ConformanceBook>()) == 0, "cascade")
            #expect(essay.books.isEmpty)
            let reader = ModelContext(container)
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceBook>()) == 0)
            #expect(try genre("essay", in: reader).books.isEmpty)
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceSketch>()) == 1, "noAction")
        },
        Self("batchDeleteOfTheToOneSideNullifiesTheToManySide") { harness in
            let container = try harness.makeContainer()
            try saveLibrary(in: container)
            let context = ModelContext(container)
            let bob = try author("Bob", in: context)
            let ann = try author("Ann", in: context)
            #expect(bob.books.map(\.title) == ["Edited"])

            try context.delete(model: ConformanceBook.self, where: #Predicate { $0.title == "Edited" })
            try context.save()

            #expect(bob.books.isEmpty)
            #expect(ann.edited.isEmpty)
            let reader = ModelContext(container)
            #expect(try author("Bob", in: reader).books.isEmpty)
            #expect(try author("Ann", in: reader).edited.isEmpty)
            #expect(try genre("essay", in: reader).books.map(\.title) == ["First"])
        },
        Self("batchDeleteOfAWholeEntityEmptiesTheRelationshipsToIt") { harness in
            let container = try harness.makeContainer()
            try saveLibrary(in: container)
            let context = ModelContext(container)
            let ann = try author("Ann", in: context), bob = try author("Bob", in: context)
            let essay = try genre("essay", in: context)
            #expect(ann.books.count == 2 && ann.edited.count == 1 && bob.books.count == 1 && essay.books.count == 2)

            try context.delete(model: ConformanceBook.self)
            #expect(ann.books.isEmpty && ann.edited.isEmpty && bob.books.isEmpty && essay.books.isEmpty)
            // A batching store let go of the books itself, leaving nothing to save; any other
            // store gets them as pending deletes.
            #expect(context.hasChanges == !harness.capabilities.contains(.batchDelete))
            try context.save()

            let reader = ModelContext(container)
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceBook>()) == 0)
            #expect(try reader.fetch(FetchDescriptor<ConformanceAuthor>(sortBy: [SortDescriptor(\.name)])).map { $0.books.count + $0.edited.count } == [0, 0])
            #expect(try genre("essay", in: reader).books.isEmpty)
        },
        Self("batchDeleteIsRefusedByADenyRuleAndDeletesNothing") { harness in
            let container = try harness.makeContainer()
            let setup = ModelContext(container)
            let carl = ConformanceAuthor(name: "Carl")
            carl.awards = [ConformanceAward(name: "Prize")]
            carl.books = [ConformanceBook(title: "Carl's")]
            setup.insert(carl)
            setup.insert(ConformanceAuthor(name: "Dora"))
            try setup.save()

            let context = ModelContext(container)
            #expect(throws: PersistenceError.self) { try context.delete(model: ConformanceAuthor.self) }
            let reader = ModelContext(container)
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceAuthor>()) == 2, "nothing was deleted")
            #expect(try reader.fetchCount(FetchDescriptor<ConformanceBook>()) == 1)

            try context.delete(model: ConformanceAuthor.self, where: #Predicate { $0.name == "Dora" })
            try context.save()
            #expect(try ModelContext(container).fetch(FetchDescriptor<ConformanceAuthor>()).map(\.name) == ["Carl"])
        },
        Self("batchDeletedModelsLeaveTheToManysTheyWereInForLaterQueries") { harness in
            let container = try harness.makeContainer()
            let setup = ModelContext(container)
            let ann = ConformanceAuthor(name: "Ann"), bob = ConformanceAuthor(name: "Bob")
            let genres = ["w", "x", "y", "z"].map(ConformanceGenre.init(name:))
            for (title, author, tags) in [("A", ann, [0, 1]), ("B", ann, [1]), ("C", ann, [2]), ("D", bob, [3])] {
                let book = ConformanceBook(title: title)
                book.author = author
                book.genres = tags.map { genres[$0] }
                setup.insert(book)
            }
            try setup.save()

            let context = ModelContext(container)
            try context.delete(model: ConformanceBook.self, where: #Predicate { $0.title != "D" })
            try context.save()

            let reader = ModelContext(container)
            let empty = #Predicate<ConformanceGenre> { $0.books.isEmpty }
            #expect(try reader.fetch(FetchDescriptor(predicate: empty, sortBy: [SortDescriptor(\.name)])).map(\.name) == ["w", "x", "y"])
            #expect(try reader.fetchCount(FetchDescriptor(predicate: empty)) == 3)
            #expect(try reader.fetch(FetchDescriptor<ConformanceGenre>(predicate: #Predicate { !$0.books.isEmpty })).map(\.name) == ["z"])
            #expect(try reader.fetch(FetchDescriptor<ConformanceAuthor>(predicate: #Predicate { $0.books.isEmpty })).map(\.name) == ["Ann"],
                    "a one-to-many's side too")
            #expect(try reader.fetch(FetchDescriptor<ConformanceGenre>(sortBy: [SortDescriptor(\.name)])).map { $0.books.map(\.title) }
                == [[], [], [], ["D"]])

            try reader.delete(model: ConformanceGenre.self, where: empty)
            try reader.save()
            let after = ModelContext(container)
            #expect(try after.fetch(FetchDescriptor<ConformanceGenre>()).map(\.name) == ["z"])
            #expect(try book("D", in: after).genres.map(\.name) == ["z"])
        },
    ]
}
