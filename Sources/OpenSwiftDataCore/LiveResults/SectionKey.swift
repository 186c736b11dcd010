import Foundation

/// How a sectioned ``ResultsObserver`` groups its results: the title of each model, and the sort
/// that keeps each section's models together.
struct SectionKey<Element: PersistentModel, SectionTitle: Hashable> {
    let title: (Element) -> SectionTitle
    /// Made when needed rather than stored: a stored `SortDescriptor` gave this struct value
    /// witnesses that, optimized, name a type internal to Foundation on Linux, which a release
    /// build then fails to link.
    let makeSort: () -> SortDescriptor<Element>

    /// The descriptor with this key's sort first, unless it is first already.
    func leadingSort(_ descriptor: FetchDescriptor<Element>) -> FetchDescriptor<Element> {
        var descriptor = descriptor
        let sort = makeSort()
        if descriptor.sortBy.first != sort {
            descriptor.sortBy.removeAll { $0 == sort }
            descriptor.sortBy.insert(sort, at: 0)
        }
        return descriptor
    }
}

extension SectionKey where SectionTitle == String {
    init(_ keyPath: KeyPath<Element, String>) {
        title = { $0[keyPath: keyPath] }
        let sortKey = Self.sendable(keyPath)
        makeSort = { SortDescriptor(sortKey) }
    }

    /// Models whose title is nil form the section titled "", first in the results.
    init(_ keyPath: KeyPath<Element, String?>) {
        title = { $0[keyPath: keyPath] ?? "" }
        let sortKey = Self.sendable(keyPath)
        makeSort = { SortDescriptor(sortKey) }
    }

    /// SwiftData's initializers take plain key paths; every key path is immutable, which is what
    /// `SortDescriptor`'s `Sendable` requirement asks of it.
    private static func sendable<Value>(_ keyPath: KeyPath<Element, Value>) -> any KeyPath<Element, Value> & Sendable {
        AssumedSendable.keyPath(keyPath)
    }
}
