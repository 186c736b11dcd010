import OpenSwiftData

/// A shelf and its books, declared `public` in a library so that `CrossModuleTests` uses the
/// members `@Model` generates from another module, as an app uses a model package.
@Model public final class Shelf {
    #Unique<Shelf>([\.code])
    public var code: String
    public var label: String
    @Relationship(deleteRule: .cascade, inverse: \Book.shelf) public var books: [Book] = []

    public init(code: String, label: String) {
        self.code = code
        self.label = label
    }
}

/// `open`, so the non-final expansion (`class var schemaMetadata`, `required init(backingData:)`)
/// is compiled for a class other modules may subclass.
@Model open class Book {
    public var title: String
    public var shelf: Shelf?

    public init(title: String) {
        self.title = title
    }
}
