import Foundation
import OpenSwiftData

/// The root of a graph inserted through it alone: one relationship of every shape, none of whose
/// targets is inserted by hand.
@Model
final class ConformanceRoot {
    var name: String
    /// A required to-one, without an inverse.
    var one: ConformanceLeaf
    /// An optional to-one, without an inverse.
    var maybeOne: ConformanceLeaf?
    /// A to-many whose inverse is a to-one.
    @Relationship(deleteRule: .cascade, inverse: \ConformanceLeaf.parent) var many: [ConformanceLeaf]
    /// An optional to-many, without an inverse.
    var maybeMany: [ConformanceLeaf]?
    /// A many-to-many.
    @Relationship(inverse: \ConformanceLabel.roots) var labels: [ConformanceLabel]
    /// An optional many-to-many.
    @Relationship(inverse: \ConformanceLabel.maybeRoots) var maybeLabels: [ConformanceLabel]?

    init(name: String, one: ConformanceLeaf, maybeOne: ConformanceLeaf? = nil, many: [ConformanceLeaf] = [],
         maybeMany: [ConformanceLeaf]? = nil, labels: [ConformanceLabel] = [], maybeLabels: [ConformanceLabel]? = nil) {
        self.name = name
        self.one = one
        self.maybeOne = maybeOne
        self.many = many
        self.maybeMany = maybeMany
        self.labels = labels
        self.maybeLabels = maybeLabels
    }
}

@Model
final class ConformanceLeaf {
    var name: String
    var parent: ConformanceRoot?
    /// A leaf's own link, so that insertion reaches two levels down.
    var label: ConformanceLabel?

    init(name: String, label: ConformanceLabel? = nil) {
        self.name = name
        self.label = label
    }
}

@Model
final class ConformanceLabel {
    var name: String
    var roots: [ConformanceRoot] = []
    var maybeRoots: [ConformanceRoot]?

    init(name: String) { self.name = name }
}

/// A writer whose relationships carry every delete rule.
@Model
final class ConformanceAuthor {
    var name: String
    /// Deleting the author deletes its books.
    @Relationship(deleteRule: .cascade, inverse: \ConformanceBook.author) var books: [ConformanceBook] = []
    /// Deleting the author leaves the books it edited, without an editor.
    @Relationship(deleteRule: .nullify, inverse: \ConformanceBook.editor) var edited: [ConformanceBook] = []
    /// An author cannot be deleted while it holds awards.
    @Relationship(deleteRule: .deny) var awards: [ConformanceAward] = []
    /// Deleting the author leaves its sketches as they are.
    @Relationship(deleteRule: .noAction) var sketches: [ConformanceSketch] = []
    /// A to-one without an inverse, to the same entity.
    var mentor: ConformanceAuthor?

    init(name: String, mentor: ConformanceAuthor? = nil) {
        self.name = name
        self.mentor = mentor
    }
}

@Model
final class ConformanceBook {
    var title: String
    var author: ConformanceAuthor?
    /// Nullify on this side too: a deleted book leaves its editor's `edited`.
    var editor: ConformanceAuthor?
    /// A many-to-many: a deleted book leaves every label's `books`.
    @Relationship(inverse: \ConformanceGenre.books) var genres: [ConformanceGenre] = []

    init(title: String) { self.title = title }
}

@Model
final class ConformanceGenre {
    var name: String
    var books: [ConformanceBook] = []

    init(name: String) { self.name = name }
}

@Model
final class ConformanceAward {
    var name: String

    init(name: String) { self.name = name }
}

@Model
final class ConformanceSketch {
    var name: String

    init(name: String) { self.name = name }
}

/// A house whose to-one relationships carry `.cascade`, `.deny` and `.noAction` (the to-one
/// `.nullify` is ``ConformanceBook/editor``).
@Model
final class ConformanceHouse {
    var name: String
    /// Deleting the house deletes its deed, a one-to-one.
    @Relationship(deleteRule: .cascade, inverse: \ConformanceDeed.house) var deed: ConformanceDeed?
    /// A house cannot be deleted while it holds a mortgage; a to-one without an inverse.
    @Relationship(deleteRule: .deny) var mortgage: ConformanceAward?
    /// Deleting the house leaves its shed as it is; a to-one without an inverse.
    @Relationship(deleteRule: .noAction) var shed: ConformanceSketch?

    init(name: String, deed: ConformanceDeed? = nil, mortgage: ConformanceAward? = nil, shed: ConformanceSketch? = nil) {
        self.name = name
        self.deed = deed
        self.mortgage = mortgage
        self.shed = shed
    }
}

@Model
final class ConformanceDeed {
    var number: Int
    var house: ConformanceHouse?

    init(number: Int) { self.number = number }
}

/// A self reference with an inverse: a manager and the reports it manages, deleted with it.
@Model
final class ConformanceEmployee {
    var name: String
    var manager: ConformanceEmployee?
    @Relationship(deleteRule: .cascade, inverse: \ConformanceEmployee.manager) var reports: [ConformanceEmployee] = []

    init(name: String, manager: ConformanceEmployee? = nil) {
        self.name = name
        self.manager = manager
    }
}
