/// A configuration whose store lives somewhere worth naming in the log line of its opening: a
/// file's path, or `memory`.
package protocol StoreLocationDescribing {
    /// Where the store's data lives.
    var storeLocation: String { get }
}
