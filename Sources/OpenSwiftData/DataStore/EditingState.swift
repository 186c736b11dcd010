import Foundation

/// Which context (and author) issued a request. Its `id` is stable for the context's lifetime, so a
/// store can keep per-context state keyed by it.
public struct EditingState: Identifiable, Sendable {
    public typealias ID = UUID
    public let id: UUID
    public var author: String?

    package init(id: UUID = UUID(), author: String? = nil) {
        self.id = id
        self.author = author
    }
}
