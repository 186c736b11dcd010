/// What the context needs to know about one relationship property at run time: where its inverse
/// lives, what deleting the model does to its targets, and the declared type its slot holds.
///
/// A class: setting a relationship reads its rule twice, and copying the struct it was (a name,
/// optionals, a tuple) each time cost more than passing a reference.
package final class RelationshipRule: @unchecked Sendable {
    package let slot: Int
    package let name: String
    package let isToMany: Bool
    package let deleteRule: Schema.Relationship.DeleteRule
    package let minimumModelCount: Int?
    package let maximumModelCount: Int?
    /// The destination's property that points back, when there is one (explicit or inferred).
    package let inverse: (info: ModelTypeInfo, slot: Int)?
    /// The property's declared type (`M`, `M?`, `[M]` or `[M]?`) and its model class `M`, for
    /// ``forEachModel(in:_:)``.
    let valueType: any Any.Type
    let destination: any PersistentModel.Type

    init(property: ModelTypeInfo.Property, destination: any PersistentModel.Type, relationship: Schema.Relationship,
         inverse: (info: ModelTypeInfo, slot: Int)?) {
        slot = property.index
        name = property.name
        isToMany = relationship.isToMany
        deleteRule = relationship.deleteRule
        minimumModelCount = relationship.minimumModelCount
        maximumModelCount = relationship.maximumModelCount
        self.inverse = inverse
        valueType = property.valueType
        self.destination = destination
    }
}

extension ModelTypeInfo {
    /// The relationship rules of this model type, by slot; computed once, from the schema of the
    /// type's graph so that inferred inverses are known even before any container exists.
    package var relationshipRules: [Int: RelationshipRule] {
        RelationshipRuleTable.of(self).bySlot
    }

    /// The rule of the relationship at `slot`, nil for an attribute: by index, where
    /// ``relationshipRules`` hashes the slot (setting a relationship asks twice, a save once per
    /// model).
    package func relationshipRule(at slot: Int) -> RelationshipRule? {
        RelationshipRuleTable.of(self).atSlot[slot]
    }

    /// The to-many rules with a minimum or maximum model count, in slot order: what a save checks.
    package var countedRelationshipRules: [RelationshipRule] {
        RelationshipRuleTable.of(self).counted
    }
}

/// One model type's rules, worked out once and kept by type (``IdentityCache``): a mutex-guarded
/// `Dictionary` by `ObjectIdentifier`, answering a dictionary to hash the slot in, took a lock
/// and two hashes a question.
private final class RelationshipRuleTable: Sendable {
    let bySlot: [Int: RelationshipRule]
    let atSlot: [RelationshipRule?]
    let counted: [RelationshipRule]

    private static let known = IdentityCache<RelationshipRuleTable>(limit: 4096)

    static func of(_ info: ModelTypeInfo) -> RelationshipRuleTable {
        known.value(for: info.modelType) { _ in RelationshipRuleTable(info) }
    }

    private init(_ info: ModelTypeInfo) {
        bySlot = Self.build(info)
        var atSlot = [RelationshipRule?](repeating: nil, count: info.properties.count)
        for (slot, rule) in bySlot { atSlot[slot] = rule }
        self.atSlot = atSlot
        counted = bySlot.values.filter { $0.isToMany && ($0.minimumModelCount ?? 0 > 0 || $0.maximumModelCount ?? 0 > 0) }
            .sorted { $0.slot < $1.slot }
    }

    private static func build(_ info: ModelTypeInfo) -> [Int: RelationshipRule] {
        guard let entity = Schema([info.modelType]).entitiesByName[info.entityName] else { return [:] }
        var rules: [Int: RelationshipRule] = [:]
        for property in info.properties {
            let destination: any PersistentModel.Type
            switch property.shape {
            case .toOne(let type, _), .toMany(let type, _): destination = type
            case .attribute: continue
            }
            guard let relationship = entity.relationshipsByName[property.name] else { continue }
            var inverse: (ModelTypeInfo, Int)?
            if let inverseName = relationship.inverseName, let destination = EntityRegistry.modelType(named: relationship.destination) {
                let destinationInfo = ModelTypeInfo.of(destination)
                if let slot = destinationInfo.slot(named: inverseName) { inverse = (destinationInfo, slot) }
            }
            rules[property.index] = RelationshipRule(property: property, destination: destination, relationship: relationship, inverse: inverse)
        }
        return rules
    }
}
