/// A filter of the common shape (comparisons of one of the entity's own properties with a constant,
/// joined by `&&`, `||` and `!`, and `contains(where:)` over a to-many whose test has that shape
/// on the related model), resolved once per fetch to slots: each row is then read by position and
/// compared, with the evaluator's own comparison, without building an evaluator and walking the
/// expression tree per row (per related model, for `contains(where:)`). Any other filter is left to
/// ``QueryEvaluator``.
indirect enum CompiledFilter {
    case compare(slot: Int, name: String, QueryComparisonOperator, constant: QueryValue, propertyFirst: Bool)
    /// `==` (or `!=`, `negated`) of a property with a string: a slot holding exactly a `String` is
    /// compared as it is, without its query value (a copy of the string) built first.
    case stringEquals(slot: Int, name: String, constant: String, negated: Bool)
    /// Whether any model the to-many at `slot` holds passes `test`, compiled for its entity.
    case anyRelated(slot: Int, destination: ModelTypeInfo, test: CompiledFilter)
    /// ``anyRelated(slot:destination:test:)`` with its test run beforehand on every model of the
    /// destination entity: whether any model the to-many holds is one whose key passed. A model of
    /// another entity (a subclass) is unreadable here.
    case anyRelatedKey(slot: Int, RelatedKeys)
    case and(CompiledFilter, CompiledFilter)
    case or(CompiledFilter, CompiledFilter)
    case not(CompiledFilter)

    init?(_ expression: QueryExpression, info: ModelTypeInfo) {
        switch expression {
        case let .comparison(.property(path), op, .value(constant), _), let .comparison(.value(constant), op, .property(path), _):
            guard path.components.count == 1, let slot = info.slot(named: path.components[0]),
                  !info.properties[slot].isRelationship else { return nil }
            let propertyFirst = if case .property = expression.comparisonLeft { true } else { false }
            if case .string(let string) = constant, op == .equal || op == .notEqual {
                self = .stringEquals(slot: slot, name: path.components[0], constant: string, negated: op == .notEqual)
                return
            }
            self = .compare(slot: slot, name: path.components[0], op, constant: constant, propertyFirst: propertyFirst)
        case let .and(lhs, rhs):
            guard let lhs = CompiledFilter(lhs, info: info), let rhs = CompiledFilter(rhs, info: info) else { return nil }
            self = .and(lhs, rhs)
        case let .or(lhs, rhs):
            guard let lhs = CompiledFilter(lhs, info: info), let rhs = CompiledFilter(rhs, info: info) else { return nil }
            self = .or(lhs, rhs)
        case .not(let operand):
            guard let operand = CompiledFilter(operand, info: info) else { return nil }
            self = .not(operand)
        case let .collectionAny(.property(path), variable, test):
            guard path.components.count == 1, let slot = info.slot(named: path.components[0]),
                  case .toMany(let destinationType, _) = info.properties[slot].shape,
                  let elementTest = test.onElement(variable) else { return nil }
            let destination = ModelTypeInfo.of(destinationType)
            guard let compiled = CompiledFilter(elementTest, info: destination) else { return nil }
            self = .anyRelated(slot: slot, destination: destination, test: compiled)
        default:
            return nil
        }
    }

    private static let stringWord = AnyOptionalLayout.typeWord(of: String.self)

    /// The identifiers a to-many slot holds; anything else (a nil optional to-many included) is
    /// the evaluator's.
    static func identifiers(in held: Any?) throws -> [PersistentIdentifier] {
        // Both exact forms are taken without a cast: a context's snapshots hold the optional one.
        guard let held, let identifiers = heldIdentifiers(held) else { throw Unreadable() }
        return identifiers
    }

    /// A row this filter cannot read by slot (a related model saved other than by a context, or of
    /// a subclass): the row goes to ``QueryEvaluator``.
    struct Unreadable: Error {}

    func matches(_ slots: [Any?], entityName: String, related: (PersistentIdentifier) -> DefaultSnapshot?) throws -> Bool {
        switch self {
        case let .compare(slot, name, op, constant, propertyFirst):
            let value = try slots[slot].map { try SnapshotQueryEngine.queryValue(of: $0, entityName: entityName, name: name) } ?? .null
            return try propertyFirst ? QueryEvaluator.compare(value, op, constant) : QueryEvaluator.compare(constant, op, value)
        case let .stringEquals(slot, name, constant, negated):
            if let address = InlineAttributes.address(in: slots, at: slot, holding: Self.stringWord) {
                return (address.load(as: String.self) == constant) != negated
            }
            let value = try slots[slot].map { try SnapshotQueryEngine.queryValue(of: $0, entityName: entityName, name: name) } ?? .null
            return try QueryEvaluator.compare(value, negated ? .notEqual : .equal, .string(constant))
        case let .anyRelated(slot, destination, test):
            for identifier in try Self.identifiers(in: slots[slot]) {
                // A related model the store no longer holds reads as all nil, as the evaluator reads it.
                let elementSlots = if let element = related(identifier) {
                    element.values.slots(for: destination)
                } else {
                    [Any?](repeating: nil, count: destination.properties.count)
                }
                guard let elementSlots else { throw Unreadable() }
                if try test.matches(elementSlots, entityName: destination.entityName, related: related) { return true }
            }
            return false
        case let .anyRelatedKey(slot, keys):
            for identifier in try Self.identifiers(in: slots[slot]) {
                guard identifier.scope === keys.scope
                        || identifier.entityName == keys.entityName && identifier.storeIdentifier == keys.scope?.storeIdentifier
                else { throw Unreadable() }
                if keys.contains(identifier.primaryKey) { return true }
            }
            return false
        case let .and(lhs, rhs):
            return try lhs.matches(slots, entityName: entityName, related: related) && rhs.matches(slots, entityName: entityName, related: related)
        case let .or(lhs, rhs):
            return try lhs.matches(slots, entityName: entityName, related: related) || rhs.matches(slots, entityName: entityName, related: related)
        case .not(let operand):
            return !(try operand.matches(slots, entityName: entityName, related: related))
        }
    }
}

private extension QueryExpression {
    /// A `contains(where:)` test on its element `variable`, rewritten to read the element's own
    /// properties; nil when it reads anything else (the row, another variable, a longer path), or
    /// has a shape ``CompiledFilter`` does not compile.
    func onElement(_ variable: Int) -> QueryExpression? {
        switch self {
        case let .comparison(.elementProperty(number, path), op, .value(constant), type) where number == variable && path.components.count == 1:
            return .comparison(.property(path), op, .value(constant), type: type)
        case let .comparison(.value(constant), op, .elementProperty(number, path), type) where number == variable && path.components.count == 1:
            return .comparison(.value(constant), op, .property(path), type: type)
        case let .and(lhs, rhs):
            guard let lhs = lhs.onElement(variable), let rhs = rhs.onElement(variable) else { return nil }
            return .and(lhs, rhs)
        case let .or(lhs, rhs):
            guard let lhs = lhs.onElement(variable), let rhs = rhs.onElement(variable) else { return nil }
            return .or(lhs, rhs)
        case .not(let operand):
            return operand.onElement(variable).map { .not($0) }
        default:
            return nil
        }
    }

    /// The left operand of a comparison.
    var comparisonLeft: QueryExpression? {
        if case let .comparison(lhs, _, _, _) = self { return lhs }
        return nil
    }
}
