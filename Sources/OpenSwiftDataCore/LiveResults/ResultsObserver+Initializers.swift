import Foundation

extension ResultsObserver where SectionTitle == Never {
    /// Observes the models `fetchDescriptor` selects in `modelContext`; throws when the first fetch fails.
    public convenience init(fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), modelContext: ModelContext,
                            isolation: isolated (any Actor)? = #isolation) throws {
        try self.init(descriptor: fetchDescriptor, section: nil, modelContext: modelContext, isolation: isolation)
    }

    /// Observes the models `fetchDescriptor` selects, through a new context of `modelContainer`.
    public convenience init(fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), modelContainer: ModelContainer,
                            isolation: isolated (any Actor)? = #isolation) throws {
        try self.init(descriptor: fetchDescriptor, section: nil, modelContext: ModelContext(modelContainer), isolation: isolation)
    }

    /// Observes the models matching `filterBy`, in `sortBy` order, in `modelContext`.
    public convenience init(filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, modelContext: ModelContext,
                            isolation: isolated (any Actor)? = #isolation) throws {
        try self.init(descriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), section: nil,
                      modelContext: modelContext, isolation: isolation)
    }

    /// Observes the models matching `filterBy`, in `sortBy` order, through a new context of `modelContainer`.
    public convenience init(filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, modelContainer: ModelContainer,
                            isolation: isolated (any Actor)? = #isolation) throws {
        try self.init(descriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), section: nil,
                      modelContext: ModelContext(modelContainer), isolation: isolation)
    }
}

extension ResultsObserver where SectionTitle == String {
    /// Observes the models `fetchDescriptor` selects in `modelContext`, in sections by `sectionBy`.
    public convenience init(fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String>,
                            modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation) throws {
        try self.init(descriptor: fetchDescriptor, section: SectionKey(sectionBy), modelContext: modelContext, isolation: isolation)
    }

    /// Observes the models `fetchDescriptor` selects in `modelContext`, in sections by an optional
    /// title; models without one form the section titled "".
    public convenience init(fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String?>,
                            modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation) throws {
        try self.init(descriptor: fetchDescriptor, section: SectionKey(sectionBy), modelContext: modelContext, isolation: isolation)
    }

    /// Observes the models `fetchDescriptor` selects through a new context of `modelContainer`, in sections by `sectionBy`.
    public convenience init(fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String>,
                            modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation) throws {
        try self.init(descriptor: fetchDescriptor, section: SectionKey(sectionBy), modelContext: ModelContext(modelContainer), isolation: isolation)
    }

    /// Observes the models `fetchDescriptor` selects through a new context of `modelContainer`, in
    /// sections by an optional title; models without one form the section titled "".
    public convenience init(fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), sectionBy: KeyPath<Element, String?>,
                            modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation) throws {
        try self.init(descriptor: fetchDescriptor, section: SectionKey(sectionBy), modelContext: ModelContext(modelContainer), isolation: isolation)
    }

    /// Observes the models matching `filterBy` in `modelContext`, in sections by `sectionBy`, each in `sortBy` order.
    public convenience init(filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, sectionBy: KeyPath<Element, String>,
                            modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation) throws {
        try self.init(descriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), section: SectionKey(sectionBy),
                      modelContext: modelContext, isolation: isolation)
    }

    /// Observes the models matching `filterBy` in `modelContext`, in sections by an optional title.
    public convenience init(filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, sectionBy: KeyPath<Element, String?>,
                            modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation) throws {
        try self.init(descriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), section: SectionKey(sectionBy),
                      modelContext: modelContext, isolation: isolation)
    }

    /// Observes the models matching `filterBy` through a new context of `modelContainer`, in sections by `sectionBy`.
    public convenience init(filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, sectionBy: KeyPath<Element, String>,
                            modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation) throws {
        try self.init(descriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), section: SectionKey(sectionBy),
                      modelContext: ModelContext(modelContainer), isolation: isolation)
    }

    /// Observes the models matching `filterBy` through a new context of `modelContainer`, in sections by an optional title.
    public convenience init(filterBy: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil, sectionBy: KeyPath<Element, String?>,
                            modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation) throws {
        try self.init(descriptor: FetchDescriptor(predicate: filterBy, sortBy: sortBy ?? []), section: SectionKey(sectionBy),
                      modelContext: ModelContext(modelContainer), isolation: isolation)
    }
}
