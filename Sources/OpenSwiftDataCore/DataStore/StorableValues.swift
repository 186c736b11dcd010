import Foundation

/// The values every store keeps, the same for each (the default store, `JSONStore`,
/// ``InMemoryStore``, and `StoreServer`, which refuses the rest with HTTP 400 before a store sees
/// them), so a model saved in one store can be saved in any other:
///
/// - `Double` and `Float` keep every value, NaN and the infinities included: they read back
///   exactly (bit for bit, except that the default store reads `-0.0` as `0.0`).
/// - `Date` must be finite and lie from `Date.distantPast` (the first day of year 1 in
///   Foundation's calendar) up to, not including, 10000-01-01T00:00:00Z: the dates ISO 8601 text
///   can spell, so every store's form (SQLite's REAL seconds, the JSON store's text or numbers)
///   reads back the same date. Other dates are refused with an error naming the property;
///   nothing is saved.
public enum StorableValues {
    /// The dates a store keeps, as seconds since 2001-01-01T00:00:00Z.
    public static let dateSeconds: Range<Double> = -63_114_076_800 ..< 252_423_993_600

    /// Whether every store keeps `date` (see ``StorableValues``).
    public static func isStorable(_ date: Date) -> Bool {
        dateSeconds.contains(date.timeIntervalSinceReferenceDate)
    }

    /// Why a store refuses `date`, or nil when it keeps it.
    public static func problem(with date: Date) -> String? {
        guard !isStorable(date) else { return nil }
        return "\(date.timeIntervalSinceReferenceDate) seconds since 2001-01-01 is not a date a store keeps: dates must be finite and lie in the years 1 to 9999 (UTC)"
    }

    /// The first value of the snapshot no store keeps, as "Entity.property: why", or nil.
    package static func problem(in snapshot: DefaultSnapshot) -> String? {
        let entityName = snapshot.persistentIdentifier.entityName
        // A snapshot in slot order (every snapshot a context makes) has only its date slots
        // looked at, not every value unwrapped and cast: saves run this for every model.
        if let type = EntityRegistry.modelType(named: entityName), case let info = ModelTypeInfo.of(type),
           let slots = snapshot.values.slots(for: info) {
            for property in info.properties where property.valueType == Date.self || property.valueType == Date?.self {
                guard let date = slots[property.index].flatMap(unwrapOptional) as? Date, let problem = problem(with: date) else { continue }
                return "\(entityName).\(property.name): \(problem)"
            }
            return nil
        }
        for (name, value) in snapshot.values {
            guard let present = unwrapOptional(value.value) else { continue }
            if let date = present as? Date, let problem = problem(with: date) {
                return "\(snapshot.persistentIdentifier.entityName).\(name): \(problem)"
            }
        }
        return nil
    }
}

/// A value no store keeps (see ``StorableValues``), found while writing it.
package struct UnstorableValueError: Error, CustomStringConvertible {
    package let message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
