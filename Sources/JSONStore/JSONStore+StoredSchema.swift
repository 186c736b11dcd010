import Foundation
import OpenSwiftData

extension JSONStore {
    /// The `StoredSchema` the JSON store file at `url` keeps, read without opening the store or
    /// migrating it; `nil` for a file with no record (the seeds' format, or a store never opened
    /// with a plan). Throws `JSONStoreError` when there is no file or it cannot be read.
    public static func storedSchema(at url: URL) throws -> StoredSchema? {
        let coder = ArchiveCoder(configuration: JSONStoreConfiguration(name: "", url: url))
        guard let file = try StoreFileReader.read(url, coder.record(in:)) else {
            throw JSONStoreError(.ioFailure, "There is no JSON store file at \(url.path); check the path.", url: url)
        }
        return file.value
    }
}
