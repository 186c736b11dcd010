import Foundation
import OpenSwiftDataCore

/// Describes the default store: where its file lives, whether it is read-only or kept in memory.
///
/// ```swift
/// ModelConfiguration()                                   // <data directory>/default.store
/// ModelConfiguration(url: URL(filePath: "/srv/trips.store"))
/// ModelConfiguration(isStoredInMemoryOnly: true)         // private to its container
/// ```
///
/// The default file lives in the per-user data directory: `$XDG_DATA_HOME/<executable>/` when
/// `XDG_DATA_HOME` is set, otherwise `~/.local/share/<executable>/`, named `<name>.store`
/// (`default.store` when no name is given).
public struct ModelConfiguration: Identifiable, Hashable, CustomDebugStringConvertible, Sendable {
    /// The store file (`/dev/null` for a store kept in memory).
    public let url: URL
    /// The configuration's name, unique within a container: `default`, or the file's name.
    public let name: String
    /// The app group's identifier; recorded for source compatibility, unused on Linux.
    public let groupAppContainerIdentifier: String?
    /// The CloudKit container's identifier; always `nil` on Linux.
    public let cloudKitContainerIdentifier: String?
    /// The app group; recorded for source compatibility, unused on Linux.
    public let groupContainer: GroupContainer
    /// The CloudKit database; recorded for source compatibility, unused on Linux.
    public let cloudKitDatabase: CloudKitDatabase
    /// The models this store holds; `nil` for all of the container's schema.
    public var schema: Schema?
    /// Whether saves are allowed; a read-only configuration opens an existing file read-only.
    public let allowsSave: Bool
    /// Whether the store lives in memory, private to its container, instead of in a file.
    public let isStoredInMemoryOnly: Bool
    /// How much history the store keeps (``HistoryRetention/default`` unless set).
    public var historyRetention: HistoryRetention = .default
    /// Whether each save is recorded in the store's history (true unless set). A store that keeps
    /// none saves a little faster, and refuses ``ModelContext/fetchHistory(_:)`` with
    /// `PersistenceError` `.unavailable`; its `ResultsObserver`s then see only the saves of their
    /// own container. Every process writing one file should agree, or the history has gaps.
    public var keepsHistory: Bool = true

    /// CloudKit does not exist on Linux; the value is recorded for source compatibility only.
    public struct CloudKitDatabase: Hashable, Sendable {
        private let kind: String
        /// The default database of the app's container.
        public static var automatic: CloudKitDatabase { CloudKitDatabase(kind: "automatic") }
        /// No CloudKit database.
        public static var none: CloudKitDatabase { CloudKitDatabase(kind: "none") }
        /// A named private database.
        public static func `private`(_ privateDBName: String) -> CloudKitDatabase { CloudKitDatabase(kind: "private:\(privateDBName)") }
    }

    /// App groups do not exist on Linux; the value is recorded for source compatibility only.
    public struct GroupContainer: Hashable, Sendable {
        fileprivate let identifier: String?
        /// The app's first group, if any.
        public static var automatic: GroupContainer { GroupContainer(identifier: nil) }
        /// No app group.
        public static var none: GroupContainer { GroupContainer(identifier: nil) }
        /// The group of this name.
        public static func identifier(_ groupName: String) -> GroupContainer { GroupContainer(identifier: groupName) }
    }

    /// The default store (`default.store` in the data directory), or one in memory.
    public init(isStoredInMemoryOnly: Bool = false) {
        self.init(nil, isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// The default store holding only these models.
    public init(for forTypes: any PersistentModel.Type..., isStoredInMemoryOnly: Bool = false) {
        self.init(nil, schema: Schema(forTypes), isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// A store named `name` (its file `<name>.store` in the data directory), or one in memory.
    public init(_ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false, allowsSave: Bool = true,
                groupContainer: GroupContainer = .automatic, cloudKitDatabase: CloudKitDatabase = .automatic) {
        let name = name ?? "default"
        let url = isStoredInMemoryOnly
            ? URL(fileURLWithPath: "/dev/null")
            : ModelConfiguration.defaultDirectory.appendingPathComponent("\(name).store")
        self.init(name: name, schema: schema, url: url, allowsSave: allowsSave, isStoredInMemoryOnly: isStoredInMemoryOnly,
                  groupContainer: groupContainer, cloudKitDatabase: cloudKitDatabase)
    }

    /// A store in the file at `url`, named after the file unless `name` is given.
    public init(_ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true,
                cloudKitDatabase: CloudKitDatabase = .automatic) {
        let name = name ?? url.deletingPathExtension().lastPathComponent
        self.init(name: name, schema: schema, url: url, allowsSave: allowsSave, isStoredInMemoryOnly: false,
                  groupContainer: .automatic, cloudKitDatabase: cloudKitDatabase)
    }

    private init(name: String, schema: Schema?, url: URL, allowsSave: Bool, isStoredInMemoryOnly: Bool,
                 groupContainer: GroupContainer, cloudKitDatabase: CloudKitDatabase) {
        self.name = name
        self.schema = schema
        self.url = url
        self.allowsSave = allowsSave
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.groupContainer = groupContainer
        self.groupAppContainerIdentifier = groupContainer.identifier
        self.cloudKitDatabase = cloudKitDatabase
        self.cloudKitContainerIdentifier = nil
    }

    /// The store file, which identifies the configuration.
    public var id: URL { url }

    /// The name, file, and whether the store is in memory or read-only.
    public var debugDescription: String {
        "ModelConfiguration(name: \(name), url: \(url.path), inMemory: \(isStoredInMemoryOnly), allowsSave: \(allowsSave))"
    }

    /// The directory default store files live in (see the type's documentation for the rule).
    public static var defaultDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "OpenSwiftData").lastPathComponent
        return base.appendingPathComponent(executable.isEmpty ? "OpenSwiftData" : executable, isDirectory: true)
    }
}

extension ModelConfiguration: DataStoreConfiguration {
    /// The store this configuration opens: the SQLite ``DefaultStore``.
    public typealias Store = DefaultStore

    /// Rejects names that cannot be file names.
    public func validate() throws {
        if name.utf8.count > 255 { throw SwiftDataError.configurationFileNameTooLong }
        if name.contains("/") || name.contains("\0") { throw SwiftDataError.configurationFileNameContainsInvalidCharacters }
    }
}

extension ModelConfiguration: StoreLocationDescribing {
    package var storeLocation: String { isStoredInMemoryOnly ? "memory" : url.path }
}
