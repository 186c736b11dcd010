import Foundation
import Observation

/// Fetched models that stay current: the results of a fetch descriptor, fetched again after every
/// save in the observer's container that inserts, updates or deletes models of `Element`.
///
/// ```swift
/// let observer = try ResultsObserver<Trip, Never>(
///     filterBy: #Predicate { $0.budget > 1000 },
///     sortBy: [SortDescriptor(\.name)],
///     modelContext: context
/// )
/// observer.results.map(\.name)      // current now, and after any context of the container saves
/// ```
///
/// It is `Observable`: code that reads ``results`` or ``sections`` inside `withObservationTracking`
/// hears of each new fetch. The fetch runs on the actor that created the observer (its
/// `isolation`); an observer made outside any actor fetches on the thread that saved. Use
/// `Never` as `SectionTitle` for results without sections, `String` to group them by a key path.
///
/// An observer made on an actor also sees saves by other containers and processes on the same
/// store (another process on the same SQLite file, another client of the same `StoreServer`),
/// read from the store's history twice a second, or as soon as a ``HistoryAnnouncing`` store
/// (`RemoteStore`) hears of them, when a store of its container keeps history.
public final class ResultsObserver<Element: PersistentModel, SectionTitle: Hashable>: Observable {
    /// The context the observer fetches with.
    public final let modelContext: ModelContext

    private var descriptor: FetchDescriptor<Element>
    private let section: SectionKey<Element, SectionTitle>?
    private var currentResults: FetchResultsCollection<Element>
    private var currentSections: SectionedResults<Element, SectionTitle>?
    private let registrar = ObservationRegistrar()
    private let subscription: SaveSubscription
    private var historyWatch: HistoryWatch?
    /// Tokens of the transactions this container's own saves recorded: `didSave` brought those.
    var savedHere = SavedTransactions()

    /// The fetch criteria: ``filterBy`` and ``sortBy`` are its predicate and sort.
    public final var fetchDescriptor: FetchDescriptor<Element> {
        registrar.access(self, keyPath: \.fetchDescriptor)
        return descriptor
    }

    /// The predicate the results match. Setting it fetches again at once.
    public final var filterBy: Predicate<Element>? {
        get { fetchDescriptor.predicate }
        set { try? update { $0.predicate = newValue } }
    }

    /// The results' order. Setting it fetches again at once; with sections, the section key path
    /// stays the first sort descriptor.
    public final var sortBy: [SortDescriptor<Element>] {
        get { fetchDescriptor.sortBy }
        set { try? update { $0.sortBy = newValue } }
    }

    /// The models the fetch descriptor selects, as of the last save in the container.
    public final var results: FetchResultsCollection<Element> {
        get {
            registrar.access(self, keyPath: \.results)
            return currentResults
        }
        set { registrar.withMutation(of: self, keyPath: \.results) { currentResults = newValue } }
    }

    /// The results grouped by the section key path, in order of first appearance; nil for an
    /// observer without sections.
    public final var sections: SectionedResults<Element, SectionTitle>? {
        get {
            registrar.access(self, keyPath: \.sections)
            return currentSections
        }
        set { registrar.withMutation(of: self, keyPath: \.sections) { currentSections = newValue } }
    }

    init(descriptor: FetchDescriptor<Element>, section: SectionKey<Element, SectionTitle>?,
         modelContext: ModelContext, isolation: (any Actor)?) throws {
        self.modelContext = modelContext
        self.section = section
        self.descriptor = section?.leadingSort(descriptor) ?? descriptor
        let models = try modelContext.fetch(self.descriptor)
        currentResults = FetchResultsCollection(models)
        currentSections = section.map { SectionedResults(models, by: $0.title) }
        subscription = SaveSubscription(container: modelContext.container,
                                        entityNames: [Schema.entityName(for: Element.self)], isolation: isolation)
        subscription.onSave = { [weak self] tokens in
            self?.savedHere.add(tokens)
            self?.refetchAfterSave()
        }
        if let isolation { historyWatch = watchHistory(on: isolation) }
    }

    /// Applies a change to the descriptor and fetches with it.
    private func update(_ change: (inout FetchDescriptor<Element>) -> Void) throws {
        var changed = descriptor
        change(&changed)
        registrar.withMutation(of: self, keyPath: \.fetchDescriptor) {
            descriptor = section?.leadingSort(changed) ?? changed
        }
        try fetch()
    }

    private func fetch() throws {
        let models = try modelContext.fetch(descriptor)
        results = FetchResultsCollection(models)
        if let section { sections = SectionedResults(models, by: section.title) }
    }

    /// A failed fetch after a save keeps the last results and is logged: the save itself succeeded.
    func refetchAfterSave() {
        do {
            try fetch()
        } catch {
            ModelContainer.logger.error("ResultsObserver<\(Element.self)> could not fetch after a save: \(error)")
        }
    }
}

extension FetchResultsCollection {
    /// Models fetched already, as one batch.
    init(_ models: [Element]) {
        loader = BatchLoader(count: models.count, batchSize: models.count) { Array(models[$0]) }
        loader.batches[0] = models
    }
}
