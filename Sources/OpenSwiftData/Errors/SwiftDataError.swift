/// SwiftData's error values, matched with `==` or `catch SwiftDataError.unsupportedPredicate`.
public struct SwiftDataError: Error, Hashable, CustomStringConvertible {
    private let code: String
    private let explanation: String

    private init(_ code: String, _ explanation: String) {
        self.code = code
        self.explanation = explanation
    }

    public var description: String { "SwiftDataError.\(code): \(explanation)" }

    public static func == (lhs: SwiftDataError, rhs: SwiftDataError) -> Bool { lhs.code == rhs.code }

    /// The same error (it still matches with `==`), explained for this occurrence.
    func explaining(_ explanation: String) -> SwiftDataError { SwiftDataError(code, explanation) }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static let includePendingChangesWithBatchSize = SwiftDataError("includePendingChangesWithBatchSize",
        "a batched fetch cannot include pending changes; save first, or set includePendingChanges = false on the descriptor")
    public static let unsupportedPredicate = SwiftDataError("unsupportedPredicate", "the predicate cannot be evaluated")
    public static let unsupportedKeyPath = SwiftDataError("unsupportedKeyPath", "the key path is not a persisted property of the model")
    public static let sortingPendingChangesWithIdentifiers = SwiftDataError("sortingPendingChangesWithIdentifiers",
        "pending changes cannot be sorted when fetching identifiers")
    public static let unsupportedSortDescriptor = SwiftDataError("unsupportedSortDescriptor", "the sort descriptor cannot be applied")
    public static let duplicateConfiguration = SwiftDataError("duplicateConfiguration",
        "two configurations of one container have the same name; give each configuration its own name")
    public static let configurationFileNameTooLong = SwiftDataError("configurationFileNameTooLong",
        "the configuration's name is too long to be a file name (255 bytes at most)")
    public static let configurationFileNameContainsInvalidCharacters = SwiftDataError("configurationFileNameContainsInvalidCharacters",
        "the configuration's name contains '/' or a NUL character, which a file name cannot")
    public static let configurationSchemaNotFoundInContainerSchema = SwiftDataError("configurationSchemaNotFoundInContainerSchema",
        "a configuration's schema names an entity the container's schema does not have; pass every model type to the container")
    public static let loadIssueModelContainer = SwiftDataError("loadIssueModelContainer", "the container could not load its stores")
    public static let modelValidationFailure = SwiftDataError("modelValidationFailure", "a model failed validation")
    public static let missingModelContext = SwiftDataError("missingModelContext", "the model is not registered in a context")
    public static let backwardMigration = SwiftDataError("backwardMigration", "the store is newer than the current schema")
    public static let unknownSchema = SwiftDataError("unknownSchema", "the store's schema is not in the migration plan")
    public static let historyTokenExpired = SwiftDataError("historyTokenExpired", "the history token refers to deleted history")
    public static let invalidTransactionFetchRequest = SwiftDataError("invalidTransactionFetchRequest", "the history request is invalid")
}

extension SwiftDataError {
    /// Lets `case SwiftDataError.unsupportedPredicate:` match any thrown error.
    public static func ~= (lhs: SwiftDataError, rhs: any Error) -> Bool {
        (rhs as? SwiftDataError) == lhs
    }
}
