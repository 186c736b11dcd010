import Foundation
import OpenSwiftData
import TestModels

/// `#Predicate` shapes whose constants are drawn at random. Arithmetic stays on bounded values:
/// where Swift's arithmetic traps, there is no result to compare.
typealias PredicateTemplate = @Sendable (inout SplitMix64) -> Predicate<TripRow>

enum DifferentialTemplates {
    static let comparisons: [PredicateTemplate] = [
        { g in let s = RandomRows.string(&g); return #Predicate { $0.name == s } },
        { g in let s = RandomRows.string(&g); return #Predicate { $0.name != s } },
        { g in let s = RandomRows.string(&g); return #Predicate { $0.name < s } },
        { g in let s = RandomRows.string(&g); return #Predicate { $0.destination >= s } },
        { g in let n = RandomRows.integer(&g); return #Predicate { $0.nights > n } },
        { g in let n = RandomRows.integer(&g); return #Predicate { $0.nights <= n } },
        { g in let n = RandomRows.integer(&g); return #Predicate { $0.nights == n } },
        { g in let d = RandomRows.double(&g); return #Predicate { $0.budget == d } },
        { g in let d = RandomRows.double(&g); return #Predicate { $0.budget != d } },
        { g in let d = RandomRows.double(&g); return #Predicate { $0.budget < d } },
        { g in let d = RandomRows.double(&g); return #Predicate { $0.budget >= d } },
        { g in let d = RandomRows.date(&g); return #Predicate { $0.startDate < d } },
        { g in let d = RandomRows.date(&g); return #Predicate { $0.startDate == d } },
        { g in let id = RandomRows.uuids.randomElement(using: &g)!; return #Predicate { $0.id == id } },
        { g in let status = Status.allCases.randomElement(using: &g)!; return #Predicate { $0.status != status } },
        { g in let b = RandomRows.bool(&g); return #Predicate { $0.isFavorite == b } },
        { _ in #Predicate { $0.isFavorite } },
        { _ in #Predicate { !$0.isFavorite } },
        { g in let lower = RandomRows.date(&g); let upper = RandomRows.date(&g); let range = min(lower, upper)...max(lower, upper)
            return #Predicate { range.contains($0.startDate) } },
        { g in let a = RandomRows.integer(&g); let b = RandomRows.integer(&g); let range = min(a, b)..<max(a, b)
            return #Predicate { range.contains($0.nights) } },
        { g in let key = Int64.random(in: 0..<8, using: &g); let id = Fixtures.tripID(key); return #Predicate { $0.persistentModelID == id } },
    ]

    static let optionals: [PredicateTemplate] = [
        { _ in #Predicate { $0.notes == nil } },
        { _ in #Predicate { $0.notes != nil } },
        { g in let s = RandomRows.optional(&g, RandomRows.string); return #Predicate { $0.notes == s } },
        { g in let s = RandomRows.optional(&g, RandomRows.string); return #Predicate { $0.notes != s } },
        { g in let s = RandomRows.string(&g); return #Predicate { !($0.notes == s) } },
        { g in let s = RandomRows.string(&g); return #Predicate { ($0.notes ?? "") == s } },
        { g in let s = RandomRows.string(&g); return #Predicate { $0.notes?.contains(s) == true } },
        { g in let n = RandomRows.small(&g); return #Predicate { $0.notes.flatMap { $0.count > n } == false } },
        { g in let s = RandomRows.string(&g); return #Predicate { $0.notes! == s } },
        { g in let d = RandomRows.double(&g); return #Predicate { ($0.discount ?? 0) > d } },
        { g in let d = RandomRows.optional(&g, RandomRows.double); return #Predicate { $0.discount == d } },
        { g in let n = RandomRows.small(&g); return #Predicate { $0.rating.flatMap { $0 * 2 } == n } },
    ]

    static let arithmetic: [PredicateTemplate] = [
        { g in let c = RandomRows.small(&g); let n = RandomRows.small(&g) * 30; return #Predicate { ($0.rating ?? 0) * c > n } },
        { g in let c = RandomRows.small(&g); let n = RandomRows.small(&g); return #Predicate { ($0.rating ?? 1) - c < n } },
        { g in let c = [2, 3, 7, -3].randomElement(using: &g)!; let r = RandomRows.small(&g); return #Predicate { $0.nights % c == r } },
        { g in let c = [2, 3, -7].randomElement(using: &g)!; let n = RandomRows.integer(&g); return #Predicate { $0.nights / c <= n } },
        { g in let n = RandomRows.small(&g) * 40; return #Predicate { -($0.rating ?? 0) >= n } },
        { g in let d = RandomRows.double(&g); let e = RandomRows.double(&g); return #Predicate { $0.budget / d > e } },
        { g in let d = RandomRows.double(&g); let e = RandomRows.double(&g); return #Predicate { $0.budget * 2 - d < e } },
        { g in let d = RandomRows.double(&g); return #Predicate { -$0.budget == d } },
        { g in let n = RandomRows.integer(&g); return #Predicate { $0.nights > n ? $0.isFavorite : $0.name.isEmpty } },
    ]

    static let strings: [PredicateTemplate] = [
        { g in let s = RandomRows.string(&g); return #Predicate { $0.name.contains(s) } },
        { g in let s = RandomRows.string(&g); return #Predicate { $0.name.starts(with: s) } },
        { g in let s = RandomRows.string(&g); return #Predicate { $0.name.localizedStandardContains(s) } },
        { g in let s = RandomRows.string(&g); let r = [ComparisonResult.orderedAscending, .orderedSame, .orderedDescending].randomElement(using: &g)!
            return #Predicate { $0.name.caseInsensitiveCompare(s) == r } },
        { g in let s = RandomRows.string(&g); let r = [ComparisonResult.orderedAscending, .orderedSame, .orderedDescending].randomElement(using: &g)!
            return #Predicate { $0.destination.localizedCompare(s) != r } },
        { g in let n = RandomRows.small(&g) + 2; return #Predicate { $0.name.count == n } },
        { _ in #Predicate { $0.destination.isEmpty } },
    ]

    static let collections: [PredicateTemplate] = [
        { g in let s = RandomRows.string(&g); return #Predicate { $0.tags.contains(s) } },
        { g in let s = RandomRows.string(&g); return #Predicate { $0.tags.contains { $0.starts(with: s) } } },
        { g in let s = RandomRows.string(&g); return #Predicate { $0.tags.allSatisfy { $0 != s } } },
        { _ in #Predicate { $0.tags.isEmpty } },
        { g in let n = RandomRows.small(&g) + 1; return #Predicate { $0.tags.count >= n } },
        { g in let names = (0..<3).map { _ in RandomRows.string(&g) }; return #Predicate { names.contains($0.name) } },
        { g in let names = Set((0..<3).map { _ in RandomRows.string(&g) }); return #Predicate { $0.tags.contains { names.contains($0) } } },
        { g in let notes = [RandomRows.optional(&g, RandomRows.string), RandomRows.optional(&g, RandomRows.string)]; return #Predicate { !notes.contains($0.notes) } },
        { g in let statuses = [Status.allCases.randomElement(using: &g)!]; return #Predicate { statuses.contains($0.status) } },
        { g in let ids = Set((0..<3).map { _ in Fixtures.tripID(Int64.random(in: 0..<8, using: &g)) }); return #Predicate { ids.contains($0.persistentModelID) } },
    ]

    static let combinations: [PredicateTemplate] = [
        { g in let n = RandomRows.integer(&g); let s = RandomRows.string(&g); return #Predicate { $0.isFavorite && $0.nights > n || $0.name == s } },
        { g in let s = RandomRows.string(&g); let d = RandomRows.double(&g); return #Predicate { !($0.notes == s || $0.budget < d) } },
        { g in let s = RandomRows.string(&g); return #Predicate { $0.notes != nil && $0.notes!.contains(s) } },
    ]

    static let all = comparisons + optionals + arithmetic + strings + collections + combinations
}
