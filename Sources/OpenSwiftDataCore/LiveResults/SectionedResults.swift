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

    /// The position of the first section: 0.
    public var startIndex: Int { 0 }
    /// The position after the last section: the number of sections.
    public var endIndex: Int { storage.count }
    /// The section at `position`, counting from 0 in order of first appearance.
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
    /// The position of the section's first model: 0.
    public var startIndex: Int { 0 }
    /// The position after the section's last model: the number of models.
    public var endIndex: Int { elements.count }
    /// The model at `position`, in the results' order.
    public subscript(position: Int) -> Element { elements[position] }
}
