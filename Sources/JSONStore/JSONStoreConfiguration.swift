import Foundation
import OpenSwiftData

/// Describes a ``JSONStore``: the JSON file that holds the models, and how it is written.
///
/// ```swift
/// let configuration = JSONStoreConfiguration(name: "Trips", schema: Schema([Trip.self]),
///                                            url: URL(filePath: "/srv/trips.json"))
/// let container = try ModelContainer(for: Trip.self, configurations: configuration)
/// ```
///
/// The file is a JSON array of `DefaultSnapshot`s, the format of the WWDC24 sample store, so a
/// file written by that store, or by hand, can seed an app. The store ends the array with a
/// checksum element, `{"crc32c":"…"}`, and refuses a file it does not match (a bit flipped on
/// disk, a truncated copy); after editing such a file by hand, remove that element, and the
/// store reads the file as it is and writes a new checksum with its next save.
public struct JSONStoreConfiguration: DataStoreConfiguration, Sendable {
    /// The store this configuration opens.
    public typealias Store = JSONStore

    /// How the file is laid out.
    public enum OutputFormatting: Hashable, Sendable {
        /// Indented, keys sorted: readable, diffable, hand-editable (the seeds' format).
        case prettyPrinted
        /// One line, keys sorted: smaller, and faster to write.
        case compact
    }

    /// How `Date` properties are written. Every strategy reads all the forms below, so changing
    /// it never makes an existing file unreadable.
    public enum DateEncoding: Hashable, Sendable {
        /// ISO 8601 text in UTC, as the seeds write: `"2024-05-01T09:30:00Z"`. A date with a
        /// fraction of a second gets as many fractional digits as it needs to read back exactly.
        case iso8601
        /// Seconds since 00:00 UTC on 1 January 2001, as a number (Foundation's default form).
        case secondsSinceReferenceDate
        /// Seconds since 00:00 UTC on 1 January 1970, as a number.
        case secondsSince1970
    }

    /// The configuration's name, unique in its container.
    public var name: String
    /// The models this store holds; `nil` for the container's whole schema.
    public var schema: Schema?
    /// The JSON file. It need not exist: the first save creates it (its directory must exist).
    public var url: URL
    /// How the file is laid out: indented (the default) or on one line.
    public var outputFormatting: OutputFormatting
    /// How dates are written (ISO 8601 text by default); every form is read whatever this says.
    public var dateEncoding: DateEncoding
    /// Whether the store keeps the history of its saves (``JSONStore/fetchHistory(_:)``), as the
    /// file's last element, written in the same file replacement as each save. Off by default,
    /// so that files stay the plain array of snapshots the seeds read; a file that has history
    /// keeps it whatever this says.
    public var keepsHistory: Bool
    /// With ``keepsHistory``, how many transactions the file keeps: the oldest go first (their
    /// tokens then expire). 10,000 by default.
    public var historyLimit: Int
    /// Whether the file ends with its checksum (the default). Without one, a file is the plain
    /// array of snapshots the seeds' stores read, and damage that still parses goes unnoticed.
    public var writesChecksum = true

    /// Describes a JSON store at `url`, written with the given layout and date form.
    public init(name: String, schema: Schema? = nil, url: URL,
                outputFormatting: OutputFormatting = .prettyPrinted, dateEncoding: DateEncoding = .iso8601) {
        self.init(name: name, schema: schema, url: url, outputFormatting: outputFormatting, dateEncoding: dateEncoding, keepsHistory: false)
    }

    /// Describes a JSON store at `url` that keeps (or not) the history of its saves, at most
    /// `historyLimit` transactions of it.
    public init(name: String, schema: Schema? = nil, url: URL, outputFormatting: OutputFormatting = .prettyPrinted,
                dateEncoding: DateEncoding = .iso8601, keepsHistory: Bool, historyLimit: Int = 10_000) {
        self.name = name
        self.schema = schema
        self.url = url
        self.outputFormatting = outputFormatting
        self.dateEncoding = dateEncoding
        self.keepsHistory = keepsHistory
        self.historyLimit = max(1, historyLimit)
    }

    /// Rejects a URL that is not a file path, before the container creates the store.
    public func validate() throws {
        guard url.isFileURL, !url.hasDirectoryPath else {
            throw JSONStoreError(.invalidConfiguration, "The JSON store '\(name)' needs a file URL such as URL(filePath: \"/srv/trips.json\"); \(url) is not one.", url: url)
        }
    }

    // The schema is left out: the container fills it in after the configuration was made.
    /// Whether two configurations name the same file with the same name and formats.
    public static func == (lhs: JSONStoreConfiguration, rhs: JSONStoreConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.outputFormatting == rhs.outputFormatting
            && lhs.dateEncoding == rhs.dateEncoding
    }

    /// Hashes the name and the file's URL.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(url)
    }
}
