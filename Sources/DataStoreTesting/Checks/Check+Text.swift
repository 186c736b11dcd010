import Foundation
import OpenSwiftData
import Testing

/// Text is kept exactly as given (its Unicode scalars), as Apple's SwiftData keeps it, while
/// predicates and sorts compare it as Swift's `String` does: by canonical equivalence, so that
/// `"e\u{301}"` (e and a combining acute accent) equals `"\u{e9}"` (é), and in the order of
/// their NFC scalars.
extension DataStoreConformance.Check {
    static let text: [Self] = [
        Self("textReadsBackWithTheScalarsItWasSavedWith") { harness in
            let container = try savedTextItems(harness)
            let reader = ModelContext(harness.capabilities.contains(.persistent) ? try harness.makeContainer() : container)
            let stored = try reader.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.small)]))
            #expect(stored.map { scalars($0.name) } == textItems().map { scalars($0.name) }, "names keep their scalars")
            #expect(stored.map { $0.notes.map(scalars) } == textItems().map { $0.notes.map(scalars) }, "optional text keeps its scalars")
            #expect(stored.map { $0.tags.map(scalars) } == textItems().map { $0.tags.map(scalars) }, "strings in a collection keep their scalars")
            #expect(scalars(stored[0].name) == [0x65, 0x301] && scalars(stored[1].name) == [0xE9])
        },
        Self("textPredicatesMatchCanonicallyEquivalentSpellings") { harness in
            let context = ModelContext(try savedTextItems(harness))
            func smalls(_ predicate: Predicate<ConformanceItem>) throws -> [Int16] {
                try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.small)])).map(\.small)
            }
            let composed = "\u{e9}", decomposed = "e\u{301}"
            let cafe: String? = "caf\u{e9}"
            #expect(try smalls(#Predicate { $0.name == composed }) == [1, 2])
            #expect(try smalls(#Predicate { $0.name == decomposed }) == [1, 2])
            #expect(try smalls(#Predicate { $0.name != composed }) == [3, 4, 5, 6])
            #expect(try smalls(#Predicate { $0.notes == cafe }) == [3])
            #expect(try smalls(#Predicate { $0.name > "zebra" }) == [1, 2, 6])
            #expect(try smalls(#Predicate { $0.name.contains("caf\u{e9}") }) == [3])
            #expect(try smalls(#Predicate { $0.name.starts(with: decomposed) }) == [1, 2, 6])
            #expect(try smalls(#Predicate { $0.name.localizedStandardContains("CAF\u{c9}") }) == [3])
            let names = [composed, "zebra"]
            #expect(try smalls(#Predicate { names.contains($0.name) }) == [1, 2, 4])
            #expect(try smalls(#Predicate { $0.tags.contains(composed) }) == [1])
            #expect(try context.fetchCount(FetchDescriptor(predicate: #Predicate<ConformanceItem> { $0.name == decomposed })) == 2)
        },
        Self("textSortsAsSwiftSortsItsStrings") { harness in
            let context = ModelContext(try savedTextItems(harness))
            let sorted = try context.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.name), SortDescriptor(\.small)]))
            let swift = textItems().sorted { ($0.name, $0.small) < ($1.name, $1.small) }
            #expect(sorted.map(\.small) == [3, 5, 4, 1, 2, 6], "NFC scalar order: c…, e, zebra, é (twice), été")
            #expect(sorted.map(\.small) == swift.map(\.small))
            let reversed = try context.fetch(FetchDescriptor<ConformanceItem>(sortBy: [SortDescriptor(\.name, order: .reverse), SortDescriptor(\.small)]))
            #expect(reversed.map(\.small) == [6, 1, 2, 4, 5, 3])
        },
        // Two canonically equivalent spellings are one `String` in Swift, so they are one unique key:
        // an insert of one updates the model stored under the other, as an equal insert does.
        Self("canonicallyEquivalentUniqueValuesAreOneKey") { harness in
            let container = try harness.makeContainer()
            let writer = ModelContext(container)
            let first = ConformanceCode(code: "e\u{301}", value: 1)
            writer.insert(first)
            try writer.save()
            let second = ConformanceCode(code: "\u{e9}", value: 2)
            let other = ModelContext(container)
            other.insert(second)
            try other.save()
            let batch = ModelContext(container)
            for model in [ConformanceCode(code: "o\u{308}", value: 3), ConformanceCode(code: "\u{f6}", value: 4)] { batch.insert(model) }
            try batch.save()
            let stored = try ModelContext(container).fetch(FetchDescriptor<ConformanceCode>(sortBy: [SortDescriptor(\.value)]))
            guard harness.capabilities.contains(.uniqueUpserts) else {
                #expect(stored.map(\.value) == [1, 2, 3, 4], "without .uniqueUpserts the store keeps every insert")
                return
            }
            #expect(stored.map(\.value) == [2, 4], "each insert equal in Swift to a stored or earlier code updated that model")
            #expect(stored.map { scalars($0.code) } == [[0xE9], [0xF6]], "the later insert's spelling is kept, exactly")
            #expect(second.persistentModelID == first.persistentModelID)

            let editor = ModelContext(container)
            let codes = try editor.fetch(FetchDescriptor<ConformanceCode>(sortBy: [SortDescriptor(\.value)]))
            codes[1].code = "e\u{301}"
            #expect(throws: (any Error).self, "an update cannot make two stored models equal in Swift") { try editor.save() }
            #expect(try ModelContext(container).fetch(FetchDescriptor<ConformanceCode>(sortBy: [SortDescriptor(\.value)])).map { scalars($0.code) }
                    == [[0xE9], [0xF6]], "the failed save changed nothing")
        },
    ]

    /// A new container holding ``textItems()``.
    private static func savedTextItems(_ harness: ConformanceHarness) throws -> ModelContainer {
        let container = try harness.makeContainer()
        let writer = ModelContext(container)
        for item in textItems() { writer.insert(item) }
        try writer.save()
        return container
    }

    /// Names in both forms; `small` numbers them. Swift orders them by their NFC scalars.
    private static func textItems() -> [ConformanceItem] {
        [
            ConformanceItem(name: "e\u{301}", notes: "e\u{301}", small: 1, tags: ["e\u{301}", "x"]),
            ConformanceItem(name: "\u{e9}", notes: "\u{e9}", small: 2, tags: ["\u{e9}\u{301}"]),
            ConformanceItem(name: "cafe\u{301} noir", notes: "cafe\u{301}", small: 3),
            ConformanceItem(name: "zebra", small: 4, tags: ["zebra"]),
            ConformanceItem(name: "e", small: 5),
            ConformanceItem(name: "\u{e9}te\u{301}", small: 6, tags: ["E\u{301}"]),
        ]
    }

    private static func scalars(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value)
    }
}
