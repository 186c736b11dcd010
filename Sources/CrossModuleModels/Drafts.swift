import OpenSwiftData

/// The `package`, `fileprivate` and `private` expansions of `@Model` and `@ModelActor`, compiled
/// for real and driven by `CrossModuleTests` through `draftTitles(savedThrough:)`.
@Model fileprivate final class Draft {
    var title: String

    init(title: String) {
        self.title = title
    }
}

@ModelActor private actor Drafter {
    func save(_ titles: [String]) throws {
        for title in titles {
            modelContext.insert(Draft(title: title))
        }
        try modelContext.save()
    }
}

/// Saves drafts with these titles through a private model actor, then reads them back sorted.
package func draftTitles(savedThrough titles: [String]) async throws -> [String] {
    let container = try ModelContainer(for: Draft.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    try await Drafter(modelContainer: container).save(titles)
    let drafts = try ModelContext(container).fetch(FetchDescriptor<Draft>(sortBy: [SortDescriptor(\.title)]))
    return drafts.map(\.title)
}

/// A label shared by the package's targets only.
@Model package final class Sticker {
    package var text: String

    package init(text: String) {
        self.text = text
    }
}

@ModelActor package actor Stickerer {
    package func stick(_ text: String) throws {
        modelContext.insert(Sticker(text: text))
        try modelContext.save()
    }
}
