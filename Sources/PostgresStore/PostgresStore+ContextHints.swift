import OpenSwiftDataCore

/// What the store promises the context, so that a save or a fetch skips work the store has done.
///
/// A save rewrites the references between the models it inserts itself (`PostgresSave` keys every
/// relationship through its remap), so the context need not look for them nor save them again.
extension PostgresStore: DataStoreRemapping {
    /// `true`: every attribute is read as its property's declared type (`PostgresValueCoding.value`).
    public var rowsHoldDeclaredTypes: Bool { true }
}
