/// Describes and identifies one store instance, and names the store type that serves it.
///
/// `Store` is SwiftData's name for the store type; `StoreType` is the name the WWDC24 sample code
/// used before the API shipped. The two default to each other, so a configuration may declare either.
public protocol DataStoreConfiguration: Hashable {
    associatedtype Store: DataStore = StoreType where Self == Store.Configuration
    associatedtype StoreType: DataStore = Store
    var name: String { get }
    var schema: Schema? { get set }
    func validate() throws
}

extension DataStoreConfiguration {
    /// Accepts every configuration; override to reject invalid ones before the store is created.
    public func validate() throws {}
}
