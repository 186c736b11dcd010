/// Fetched models grouped into sections by a key path, in order of each section's first model.
///
/// ```swift
/// for section in observer.sections ?? SectionedResults() {
///     print(section.title, section.map(\.name))
/// }
/// observer.sections?[sectionTitle: "Europe"]?.count
/// ```
public struct SectionedResults<Element: PersistentModel, SectionTitle: Hashable>: RandomAccessCollection {
    private let storage: [ResultsSection<Element, SectionTitle>]
    private let positions: [SectionTitle: Int]

    /// No sections.
    public init() {
        storage = []
        positions = [:]
    }

    init(_ models: [Element], by title: (Element) -> SectionTitle) {
        var sections: [(title: SectionTitle, elements: [Element])] = []
        var positions: [SectionTitle: Int] = [:]
        for model in models {
            let key = title(model)
            if let position = positions[key] {
                sections[position].elements.append(model)
            } else {
                positions[key] = sections.count
                sections.append((key, [model]))
            }
        }
        storage = sections.map { ResultsSection(title: $0.title, elements: $0.elements) }
        self.positions = positions
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }
    public subscript(position: Int) -> ResultsSection<Element, SectionTitle> { storage[position] }

    /// The section titles, in order.
    public var sectionTitles: [SectionTitle] { storage.map(\.title) }

    /// The section with this title, or nil when no model has it.
    public subscript(sectionTitle title: SectionTitle) -> ResultsSection<Element, SectionTitle>? {
        positions[title].map { storage[$0] }
    }
}

/// The models of one section of ``SectionedResults``: those sharing one value of the section key path.
public struct ResultsSection<Element: PersistentModel, SectionTitle: Hashable>: RandomAccessCollection, Identifiable {
    /// The value of the section key path that this section's models share.
    public let title: SectionTitle
    private let elements: [Element]

    init(title: SectionTitle, elements: [Element]) {
        self.title = title
        self.elements = elements
    }

    /// The section's title, which identifies it among its results' sections.
    public var id: SectionTitle { title }
    public var startIndex: Int { 0 }
    public var endIndex: Int { elements.count }
    public subscript(position: Int) -> Element { elements[position] }
}
