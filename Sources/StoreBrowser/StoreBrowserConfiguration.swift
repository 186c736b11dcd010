import StoreServer

/// What a ``StoreBrowser`` lets its users do and how it pages.
///
/// ```swift
/// let configuration = try StoreBrowserConfiguration(mode: .edit, pageSize: 100)
/// ```
public struct StoreBrowserConfiguration: Sendable {
    /// Whether the browser only shows the store or also changes it.
    public enum Mode: String, Sendable, CaseIterable {
        /// Pages show the store; no form changes it. The default.
        case readOnly = "read"
        /// Models can also be edited and deleted, through a `ModelContext`, by a token with the
        /// admin scope; other tokens browse read-only.
        case edit
    }

    /// Whether models can be edited and deleted.
    public var mode: Mode
    /// The most models an entity's page shows (1 to 500).
    public var pageSize: Int
    /// How long a login lasts.
    public var sessionLifetime: Duration
    /// The author the browser's saves carry in the store's history.
    public var author: String

    /// Creates a configuration; throws `StoreServerError` `.invalidConfiguration` for a page
    /// size outside 1...500, a lifetime that is not positive or an empty author.
    public init(mode: Mode = .readOnly, pageSize: Int = 50, sessionLifetime: Duration = .seconds(12 * 60 * 60),
                author: String = "openswiftdata-browser") throws {
        guard (1...500).contains(pageSize) else {
            throw StoreServerError(.invalidConfiguration, "The browser's page size must be 1 to 500 (got \(pageSize)).")
        }
        guard sessionLifetime > .zero, !author.isEmpty else {
            throw StoreServerError(.invalidConfiguration, "The browser's session lifetime must be positive and its author non-empty.")
        }
        self.mode = mode
        self.pageSize = pageSize
        self.sessionLifetime = sessionLifetime
        self.author = author
    }
}
