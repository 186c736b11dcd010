import Foundation

/// What the context needs to know about one relationship property at run time: where its inverse
/// lives, and what deleting the model does to its targets.
package struct RelationshipRule: @unchecked Sendable {
    package let slot: Int
    package let name: String
    package let isToMany: Bool
    package let deleteRule: Schema.Relationship.DeleteRule
    package let minimumModelCount: Int?
    package let maximumModelCount: Int?
    /// The destination's property that points back, when there is one (explicit or inferred).
    package let inverse: (info: ModelTypeInfo, slot: Int)?
}

extension ModelTypeInfo {
    /// The relationship rules of this model type, by slot; computed once, from the schema of the
    /// type's graph so that inferred inverses are known even before any container exists.
    package var relationshipRules: [Int: RelationshipRule] {
        RelationshipRuleCache.rules(for: self)
    }
}

private enum RelationshipRuleCache {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [ObjectIdentifier: [Int: RelationshipRule]] = [:]

    static func rules(for info: ModelTypeInfo) -> [Int: RelationshipRule] {
        let key = ObjectIdentifier(info)
        if let rules = lock.withLock({ cache[key] }) { return rules }
        let rules = build(info)
        lock.withLock { cache[key] = rules }
        return rules
    }

    private static func build(_ info: ModelTypeInfo) -> [Int: RelationshipRule] {
        guard let entity = Schema([info.modelType]).entitiesByName[info.entityName] else { return [:] }
        var rules: [Int: RelationshipRule] = [:]
        for property in info.properties where property.isRelationship {
            guard let relationship = entity.relationshipsByName[property.name] else { continue }
            var inverse: (ModelTypeInfo, Int)?
            if let inverseName = relationship.inverseName, let destination = EntityRegistry.modelType(named: relationship.destination) {
                let destinationInfo = ModelTypeInfo.of(destination)
                if let slot = destinationInfo.slot(named: inverseName) { inverse = (destinationInfo, slot) }
            }
            rules[property.index] = RelationshipRule(
                slot: property.index, name: property.name, isToMany: relationship.isToMany,
                deleteRule: relationship.deleteRule, minimumModelCount: relationship.minimumModelCount,
                maximumModelCount: relationship.maximumModelCount, inverse: inverse)
        }
        return rules
    }
}
