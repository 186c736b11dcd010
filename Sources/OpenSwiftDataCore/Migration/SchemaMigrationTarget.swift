/// What a store gives ``SchemaMigrator`` to migrate it: its record, its own way of changing the
/// shape of its data, and contexts over its data through any version's model types.
///
/// A store adopts it with a small value made in its initializer, around the open file or
/// transaction, and hands it to ``SchemaMigrator/migrate(_:)``; see <doc:Migrations>.
public protocol SchemaMigrationTarget {
    /// The record the store keeps (``StoredSchema``); `nil` when it keeps none: a new store, or
    /// one written before it kept records, which is brought to the current schema as it is.
    func storedSchema() throws -> StoredSchema?

    /// Changes the stored data's shape to `schema` as lightweight migration infers it (entities
    /// and properties added, removed or renamed through `originalName`, optionality, uniqueness,
    /// indexes), and keeps `record` as the store's record. Throws, changing nothing the store
    /// keeps, when the change cannot be inferred; does nothing but keep `record` when the shape
    /// is already `schema`'s.
    func applySchemaChange(to schema: Schema, recording record: StoredSchema) throws

    /// A container whose contexts read and write the data being migrated through `schema`'s
    /// model types, for a custom stage's `willMigrate` (the old version's) and `didMigrate` (the
    /// new one's). Its saves belong to the migration: a store that migrates atomically keeps them
    /// inside the migration's transaction.
    func migrationContainer(for schema: Schema) throws -> ModelContainer
}
