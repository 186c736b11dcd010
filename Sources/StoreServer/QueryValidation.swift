import Foundation
import OpenSwiftData

/// Checks that a query names only the schema's entities and properties, and follows relationships
/// the way the schema allows, before a store renders it.
struct QueryValidation {
    let schema: ServedSchema

    func validate(_ query: DataStoreQuery) throws {
        _ = try schema.entity(named: query.entityName)
        if let limit = query.fetchLimit, limit < 0 {
            throw StoreServerError(.invalidRequest, "fetchLimit must not be negative (got \(limit)).")
        }
        if let offset = query.fetchOffset, offset < 0 {
            throw StoreServerError(.invalidRequest, "fetchOffset must not be negative (got \(offset)).")
        }
        for key in query.sortBy {
            _ = try resolve(key.path, from: query.entityName)
        }
        if let filter = query.filter {
            try validate(filter, root: query.entityName, variables: [:])
        }
    }

    /// What a path ends on: an attribute, or a relationship to the named entity.
    enum Target {
        case attribute
        case relationship(String)
    }

    /// Follows a path from an entity: every name before the last must be a relationship.
    func resolve(_ path: QueryPropertyPath, from entityName: String) throws -> Target {
        guard !path.components.isEmpty else {
            throw StoreServerError(.invalidRequest, "A property path in the query is empty.")
        }
        var current = entityName
        for (index, name) in path.components.enumerated() {
            let entity = try schema.entity(named: current)
            let isLast = index == path.components.count - 1
            if let relationship = entity.relationships[name] {
                if isLast { return .relationship(relationship.destination) }
                current = relationship.destination
                continue
            }
            guard entity.attributes.contains(name) else {
                throw StoreServerError(.invalidRequest, "The query names '\(path)', but \(current) has no property '\(name)' (its properties: \(entity.propertyNames.joined(separator: ", "))).")
            }
            guard isLast else {
                throw StoreServerError(.invalidRequest, "The query follows '\(path)', but \(current).\(name) is an attribute, not a relationship.")
            }
            return .attribute
        }
        return .attribute
    }

    /// `variables`: the entity each bound collection element belongs to (nil for a plain value).
    private func validate(_ expression: QueryExpression, root: String, variables: [Int: String?]) throws {
        let recurse = { (child: QueryExpression) in try validate(child, root: root, variables: variables) }
        switch expression {
        case .value, .identifier:
            return
        case .property(let path):
            _ = try resolve(path, from: root)
        case .variable(let number):
            guard variables[number] != nil else { throw unbound(number) }
        case .elementProperty(let number, let path):
            guard let bound = variables[number] else { throw unbound(number) }
            guard let entity = bound else {
                throw StoreServerError(.invalidRequest, "The query reads '\(path)' of collection element \(number), which is a value, not a model.")
            }
            _ = try resolve(path, from: entity)
        case .comparison(let lhs, _, let rhs, _), .and(let lhs, let rhs), .or(let lhs, let rhs),
             .arithmetic(let lhs, _, let rhs), .coalesce(let lhs, let rhs), .stringContains(let lhs, let rhs, _),
             .startsWith(let lhs, let rhs), .stringCompare(let lhs, let rhs, _), .collectionContains(let lhs, let rhs, _):
            try recurse(lhs)
            try recurse(rhs)
        case .not(let operand), .negate(let operand), .forceUnwrap(let operand), .count(let operand, _),
             .isEmpty(let operand, _), .in(let operand, _, _):
            try recurse(operand)
        case .isEntity(let operand, let entity):
            _ = try schema.entity(named: entity)
            try recurse(operand)
        case .conditional(.isEntity(.identifier, let entity), let then, let otherwise):
            // `as?`: the branch taken for the subclass's models reads the subclass's properties.
            try validate(then, root: entity, variables: variables)
            try recurse(otherwise)
        case .conditional(let test, let then, let otherwise):
            try recurse(test)
            try recurse(then)
            try recurse(otherwise)
        case .collectionAny(let collection, let number, let test), .collectionAll(let collection, let number, let test):
            try recurse(collection)
            var inner = variables
            inner[number] = try elementEntity(of: collection, root: root, variables: variables)
            try validate(test, root: root, variables: inner)
        }
    }

    /// The entity of a collection's elements: the destination of a to-many path, nil for values.
    private func elementEntity(of collection: QueryExpression, root: String, variables: [Int: String?]) throws -> String? {
        let target: Target
        switch collection {
        case .property(let path): target = try resolve(path, from: root)
        case .elementProperty(let number, let path):
            guard let bound = variables[number], let entity = bound else { return nil }
            target = try resolve(path, from: entity)
        default: return nil
        }
        if case .relationship(let destination) = target { return destination }
        return nil
    }

    private func unbound(_ number: Int) -> StoreServerError {
        StoreServerError(.invalidRequest, "The query uses collection element \(number) outside the contains/allSatisfy that binds it.")
    }
}
