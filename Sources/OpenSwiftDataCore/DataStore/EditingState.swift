import Foundation

/// Which context (and author) issued a request. Its `id` is stable for the context's lifetime, so a
/// store can keep per-context state keyed by it.
public struct EditingState: Identifiable, Sendable {
    /// The type of a context's stable identifier.
    public typealias ID = UUID
    /// The context's identifier, the same for all of its requests.
    public let id: UUID
    /// The author the context records its changes under, if it set one.
    public var author: String?

    package init(id: UUID = UUID(), author: String? = nil) {
        self.id = id
        self.author = author
    }
}
