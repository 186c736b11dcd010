import OpenSwiftData

extension SampleRowStore {
    /// The identifiers a filter selects when it reads nothing but the model's identifier
    /// (`ids.contains($0.persistentModelID)`, `$0.persistentModelID == id`), as contexts ask when
    /// they load related models and faults; nil for any other filter.
    static func identifiers(selectedBy filter: QueryExpression) -> [PersistentIdentifier]? {
        switch filter {
        case let .in(.identifier, values, _):
            return identifiers(in: values)
        case let .comparison(.identifier, .equal, .value(value), _), let .comparison(.value(value), .equal, .identifier, _):
            return identifiers(in: [value])
        default:
            return nil
        }
    }

    private static func identifiers(in values: [QueryValue]) -> [PersistentIdentifier]? {
        var identifiers: [PersistentIdentifier] = []
        identifiers.reserveCapacity(values.count)
        for value in values {
            guard case .identifier(let identifier) = value else { return nil }
            identifiers.append(identifier)
        }
        return identifiers
    }
}
