import OpenSwiftData
import Vapor

extension Application {
    /// The container request contexts come from; set it once while configuring the app.
    ///
    /// ```swift
    /// app.modelContainer = try ModelContainer(for: Trip.self)
    /// app.get("trips") { req in try req.modelContext.fetch(FetchDescriptor<Trip>()).map(\.name) }
    /// ```
    public var modelContainer: ModelContainer? {
        get { storage[ModelContainerKey.self] }
        set { storage[ModelContainerKey.self] = newValue }
    }
}

extension Request {
    /// A context of ``Vapor/Application/modelContainer`` for this request alone, made when first
    /// read: each request sees the saved state and its own changes, which it saves with
    /// `try req.modelContext.save()`. Use it only from the request's handler, as a
    /// `ModelContext` belongs to one task at a time. Reading it before the app has a container is
    /// an error (500) that names the setting.
    public var modelContext: ModelContext {
        get throws {
            if let box = storage[ModelContextKey.self] { return box.context }
            guard let container = application.modelContainer else {
                throw Abort(.internalServerError, reason: "The app has no model container: set app.modelContainer while configuring it.")
            }
            let box = ContextBox(context: ModelContext(container))
            storage[ModelContextKey.self] = box
            return box.context
        }
    }
}

private struct ModelContainerKey: StorageKey {
    typealias Value = ModelContainer
}

private struct ModelContextKey: StorageKey {
    typealias Value = ContextBox
}

/// Storage wants Sendable values; the context is only used by the request's own handler.
private struct ContextBox: @unchecked Sendable {
    let context: ModelContext
}
