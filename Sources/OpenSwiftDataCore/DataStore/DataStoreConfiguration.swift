/// Describes and identifies one store instance, and names the store type that serves it.
///
/// `Store` is SwiftData's name for the store type; `StoreType` is the name the WWDC24 sample code
/// used before the API shipped. The two default to each other, so a configuration may declare either.
public protocol DataStoreConfiguration: Hashable {
    /// The store type this configuration opens (SwiftData's name).
    associatedtype Store: DataStore = StoreType where Self == Store.Configuration
    /// The store type this configuration opens (the WWDC24 sample's name).
    associatedtype StoreType: DataStore = Store
    /// The configuration's name, unique in its container.
    var name: String { get }
    /// The models the store holds; the container fills it in when `nil`.
    var schema: Schema? { get set }
    /// Throws when the configuration cannot describe a store, before the container creates one.
    func validate() throws
}

extension DataStoreConfiguration {
    /// Accepts every configuration; override to reject invalid ones before the store is created.
    public func validate() throws {}
}
