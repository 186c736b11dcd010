import OpenSwiftData

/// Shelves books on its own context; `public` so that other modules create it with the
/// initializer `@ModelActor` generates.
@ModelActor public actor Librarian {
    /// Inserts a shelf, or updates the stored one with the same code (`#Unique`), and gives it
    /// books with these titles.
    public func shelve(code: String, label: String, titles: [String]) throws -> PersistentIdentifier {
        let shelf = Shelf(code: code, label: label)
        modelContext.insert(shelf)
        shelf.books = titles.map(Book.init(title:))
        try modelContext.save()
        return shelf.persistentModelID
    }

    /// The titles on the shelf with this identifier, read through `ModelActor`'s subscript.
    public func titles(on shelf: PersistentIdentifier) -> [String]? {
        self[shelf, as: Shelf.self]?.books.map(\.title).sorted()
    }
}
