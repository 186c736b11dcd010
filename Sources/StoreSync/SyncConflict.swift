import Foundation
import SwiftData

/// A change this client is about to push, or has not pushed yet, that meets another writer's
/// change to the same model since this client last pulled.
///
/// Without a resolver the defaults apply: the last writer wins per attribute, in the server's
/// commit order (so the change being pushed wins), and a delete wins over a concurrent update.
/// A resolver decides each conflict otherwise:
///
/// ```swift
/// configuration.resolver = { conflict in
///     // Keep the larger budget, whoever wrote it.
///     if conflict.property == "budgetCents", let local = conflict.localValue as? Int, let server = conflict.serverValue as? Int {
///         return local >= server ? .keepLocal : .keepServer
///     }
///     return .keepLocal
/// }
/// ```
public struct SyncConflict: @unchecked Sendable {
    /// What met what.
    public enum Kind: String, Sendable {
        /// Both sides changed the property.
        case updateUpdate
        /// This client changed a model another writer deleted.
        case updateDelete
        /// This client deleted a model another writer changed.
        case deleteUpdate
    }

    /// How to settle a conflict.
    public enum Resolution: Sendable {
        /// This client's side: its value (or its delete) goes to the server; for an update of a
        /// deleted model, the model is inserted again.
        case keepLocal
        /// The server's side: this client takes the server's value (or keeps the model the
        /// server kept, or deletes it as the server did).
        case keepServer
    }

    /// What met what.
    public let kind: Kind
    /// The entity of the model.
    public let entityName: String
    /// The model's identifier in the local store.
    public let persistentIdentifier: PersistentIdentifier
    /// The attribute or relationship both sides changed (``Kind/updateUpdate``); nil otherwise.
    public let property: String?
    /// This client's value of ``property``: an attribute's value, or the related models'
    /// identifiers (`PersistentIdentifier?` or `[PersistentIdentifier]`).
    public let localValue: Any?
    /// The server's value of ``property``, typed as the attribute is; relationships as the
    /// related models' keys on the server.
    public let serverValue: Any?
}

/// Decides a conflict; called on the engine's own executor, once per conflict.
public typealias SyncResolver = @Sendable (SyncConflict) -> SyncConflict.Resolution
