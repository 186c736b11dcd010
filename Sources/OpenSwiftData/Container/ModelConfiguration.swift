import Foundation

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
    public let url: URL
    public let name: String
    public let groupAppContainerIdentifier: String?
    public let cloudKitContainerIdentifier: String?
    public let groupContainer: GroupContainer
    public let cloudKitDatabase: CloudKitDatabase
    public var schema: Schema?
    public let allowsSave: Bool
    public let isStoredInMemoryOnly: Bool

    /// CloudKit does not exist on Linux; the value is recorded for source compatibility only.
    public struct CloudKitDatabase: Hashable, Sendable {
        private let kind: String
        public static var automatic: CloudKitDatabase { CloudKitDatabase(kind: "automatic") }
        public static var none: CloudKitDatabase { CloudKitDatabase(kind: "none") }
        public static func `private`(_ privateDBName: String) -> CloudKitDatabase { CloudKitDatabase(kind: "private:\(privateDBName)") }
    }

    /// App groups do not exist on Linux; the value is recorded for source compatibility only.
    public struct GroupContainer: Hashable, Sendable {
        fileprivate let identifier: String?
        public static var automatic: GroupContainer { GroupContainer(identifier: nil) }
        public static var none: GroupContainer { GroupContainer(identifier: nil) }
        public static func identifier(_ groupName: String) -> GroupContainer { GroupContainer(identifier: groupName) }
    }

    public init(isStoredInMemoryOnly: Bool = false) {
        self.init(nil, isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    public init(for forTypes: any PersistentModel.Type..., isStoredInMemoryOnly: Bool = false) {
        self.init(nil, schema: Schema(forTypes), isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    public init(_ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false, allowsSave: Bool = true,
                groupContainer: GroupContainer = .automatic, cloudKitDatabase: CloudKitDatabase = .automatic) {
        let name = name ?? "default"
        let url = isStoredInMemoryOnly
            ? URL(fileURLWithPath: "/dev/null")
            : ModelConfiguration.defaultDirectory.appendingPathComponent("\(name).store")
        self.init(name: name, schema: schema, url: url, allowsSave: allowsSave, isStoredInMemoryOnly: isStoredInMemoryOnly,
                  groupContainer: groupContainer, cloudKitDatabase: cloudKitDatabase)
    }

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

    public var id: URL { url }

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
    public typealias Store = DefaultStore

    /// Rejects names that cannot be file names.
    public func validate() throws {
        if name.utf8.count > 255 { throw SwiftDataError.configurationFileNameTooLong }
        if name.contains("/") || name.contains("\0") { throw SwiftDataError.configurationFileNameContainsInvalidCharacters }
    }
}
