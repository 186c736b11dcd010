/// SwiftData's error values, matched with `==` or `catch SwiftDataError.unsupportedPredicate`.
public struct SwiftDataError: Error, Hashable, CustomStringConvertible {
    private let code: String
    private let explanation: String

    private init(_ code: String, _ explanation: String) {
        self.code = code
        self.explanation = explanation
    }

    /// The error's code and what went wrong.
    public var description: String { "SwiftDataError.\(code): \(explanation)" }

    /// Whether two errors have the same code.
    public static func == (lhs: SwiftDataError, rhs: SwiftDataError) -> Bool { lhs.code == rhs.code }

    /// The same error (it still matches with `==`), explained for this occurrence.
    func explaining(_ explanation: String) -> SwiftDataError { SwiftDataError(code, explanation) }

    /// Hashes the error's code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// A fetch with a batch size cannot include the context's unsaved changes.
    public static let includePendingChangesWithBatchSize = SwiftDataError("includePendingChangesWithBatchSize",
        "a batched fetch cannot include pending changes; save first, or set includePendingChanges = false on the descriptor")
    /// The store cannot evaluate the fetch's predicate.
    public static let unsupportedPredicate = SwiftDataError("unsupportedPredicate", "the predicate cannot be evaluated")
    /// A key path in the fetch does not name a persisted property of the model.
    public static let unsupportedKeyPath = SwiftDataError("unsupportedKeyPath", "the key path is not a persisted property of the model")
    /// A fetch of identifiers cannot sort the context's unsaved changes.
    public static let sortingPendingChangesWithIdentifiers = SwiftDataError("sortingPendingChangesWithIdentifiers",
        "pending changes cannot be sorted when fetching identifiers")
    /// The store cannot apply one of the fetch's sort descriptors.
    public static let unsupportedSortDescriptor = SwiftDataError("unsupportedSortDescriptor", "the sort descriptor cannot be applied")
    /// Two configurations of one container have the same name.
    public static let duplicateConfiguration = SwiftDataError("duplicateConfiguration",
        "two configurations of one container have the same name; give each configuration its own name")
    /// A configuration's name is too long to name its store file.
    public static let configurationFileNameTooLong = SwiftDataError("configurationFileNameTooLong",
        "the configuration's name is too long to be a file name (255 bytes at most)")
    /// A configuration's name holds characters a file name cannot.
    public static let configurationFileNameContainsInvalidCharacters = SwiftDataError("configurationFileNameContainsInvalidCharacters",
        "the configuration's name contains '/' or a NUL character, which a file name cannot")
    /// A configuration's schema names an entity the container's schema lacks.
    public static let configurationSchemaNotFoundInContainerSchema = SwiftDataError("configurationSchemaNotFoundInContainerSchema",
        "a configuration's schema names an entity the container's schema does not have; pass every model type to the container")
    /// The container could not load one of its stores.
    public static let loadIssueModelContainer = SwiftDataError("loadIssueModelContainer", "the container could not load its stores")
    /// A model failed validation, such as a relationship's model count, when saving.
    public static let modelValidationFailure = SwiftDataError("modelValidationFailure", "a model failed validation")
    /// The model is not registered in a model context.
    public static let missingModelContext = SwiftDataError("missingModelContext", "the model is not registered in a context")
    /// The store was written by a newer schema than the current one.
    public static let backwardMigration = SwiftDataError("backwardMigration", "the store is newer than the current schema")
    /// The migration plan has no stages from the store's schema version to the current one.
    public static let unknownSchema = SwiftDataError("unknownSchema", "the migration plan has no stages from the store's schema to the current one")
    /// The store's schema is neither the current schema nor any schema of the migration plan.
    public static let unknownDataStoreSchema = SwiftDataError("unknownDataStoreSchema",
        "the store's schema is neither the current schema nor any schema of the migration plan")
    /// The history token refers to transactions that were already deleted.
    public static let historyTokenExpired = SwiftDataError("historyTokenExpired", "the history token refers to deleted history")
    /// The history fetch request is invalid.
    public static let invalidTransactionFetchRequest = SwiftDataError("invalidTransactionFetchRequest", "the history request is invalid")
}
