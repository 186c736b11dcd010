import Foundation

/// A model class hierarchy as the SQL stores keep it: one table per hierarchy, named after the
/// root entity, holding the rows of the root and of every subentity, each row's entity named in
/// its entity column (`Z_ENT`), with the columns of every class's properties (a subclass's added
/// columns NULL in the rows of other classes).
///
/// So a relationship whose destination is the base class can hold a subclass's model (a key
/// names one row of one table), and `#Unique` and `#Index` declared on the base hold across the
/// whole hierarchy. An entity without superentity or subentities keeps a table of its own.
/// Which entities share a table, in which order their columns come and how a row's entity is
/// tested are the same in every SQL store; how a column is stored is each store's.
package struct EntityHierarchy: Codable, Hashable, Sendable {
    /// The root entity, after which the shared table is named.
    package var root: String
    /// An entity's view: the entity and its subentities, whose rows a fetch including subclasses
    /// reads. The shared table's description: every entity of the hierarchy.
    package var entities: [String]

    /// The hierarchy `entity` belongs to, as the entity sees it; nil when it has neither a
    /// superentity nor subentities.
    package init?(of entity: Schema.Entity) {
        var root = entity
        while let parent = root.superentity { root = parent }
        guard !root.subentities.isEmpty else { return nil }
        self.root = root.name
        entities = [entity.name] + Self.descendants(of: entity)
    }

    package init(root: String, entities: [String]) {
        self.root = root
        self.entities = entities
    }

    /// The subentities of `entity`, theirs after them, each level by name.
    private static func descendants(of entity: Schema.Entity) -> [String] {
        var names: [String] = []
        var pending = entity.subentities.sorted { $0.name < $1.name }
        while !pending.isEmpty {
            let next = pending.removeFirst()
            names.append(next.name)
            pending += next.subentities.sorted { $0.name < $1.name }
        }
        return names
    }

    /// The table of a destination class that is not named after it: its hierarchy root's, for a
    /// subclass. A root's table is named after it, whether or not it has subclasses.
    package static func table(of destination: any PersistentModel.Type) -> String? {
        let info = ModelTypeInfo.of(destination)
        return info.isSubclass ? Schema.entityName(for: info.rootType) : nil
    }

    /// The class of `entity`'s hierarchy that declares `property`: a join table is named after
    /// it, so that its subclasses share the table.
    package static func declaringEntity(of property: String, in entity: Schema.Entity) -> Schema.Entity {
        var declaring = entity
        while let parent = declaring.superentity, parent.properties.contains(where: { $0.name == property }) { declaring = parent }
        return declaring
    }

    /// Constraints and indexes declared on the entity and on its superentities: those on a base
    /// class hold over the rows of every class of its hierarchy.
    package static func inherited(_ entity: Schema.Entity, _ lists: KeyPath<Schema.Entity, [[String]]>) -> [[String]] {
        // A flat entity's lists as declared, so its stored description reads as before.
        guard entity.superentity != nil else { return entity[keyPath: lists] }
        var result: [[String]] = []
        var current: Schema.Entity? = entity
        var chain: [Schema.Entity] = []
        while let next = current {
            chain.insert(next, at: 0)
            current = next.superentity
        }
        for member in chain {
            for list in member[keyPath: lists] where !result.contains(list) { result.append(list) }
        }
        return result
    }

    /// A hierarchy's members in the order their columns come in its table: the root first, so
    /// its columns keep their place and their optionality, then the others by entity name.
    package static func ordered<Member>(_ members: [Member], root: String, entity: (Member) -> String) -> [Member] {
        members.filter { entity($0) == root } + members.filter { entity($0) != root }.sorted { entity($0) < entity($1) }
    }

    /// The columns of a hierarchy's table, picked from its members' (in ``ordered(_:root:entity:)``
    /// order) by property name: a name met again must be stored the same way (`same`).
    ///
    /// - Returns: per column, the member and its position in that member's columns; or the
    ///   member and name of the first column stored differently from its namesake.
    package static func sharedColumns<Column>(_ members: [(entity: String, columns: [Column])],
                                              name: (Column) -> String, same: (Column, Column) -> Bool)
        -> Result<[(member: Int, position: Int)], SharedColumnConflict> {
        var picked: [(member: Int, position: Int)] = []
        var byName: [String: Column] = [:]
        for (member, entry) in members.enumerated() {
            for (position, column) in entry.columns.enumerated() {
                if let existing = byName[name(column)] {
                    guard same(existing, column) else { return .failure(SharedColumnConflict(entity: entry.entity, property: name(column))) }
                    continue
                }
                byName[name(column)] = column
                picked.append((member, position))
            }
        }
        return .success(picked)
    }

    /// The constraint or index lists of every member, each once, in member order.
    package static func union(_ lists: [[[String]]]) -> [[String]] {
        var result: [[String]] = []
        for list in lists.joined() where !result.contains(list) { result.append(list) }
        return result
    }

    /// A property stored differently by two classes of one hierarchy, which one table cannot hold.
    package struct SharedColumnConflict: Error {
        package let entity: String
        package let property: String
    }
}
