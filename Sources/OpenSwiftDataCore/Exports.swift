// `import SwiftData` gives code Foundation (for `#Predicate`, `SortDescriptor`, `Date`) and
// Observation (a `@Model` class is `Observable`); so must we.
@_exported import Foundation
@_exported import Observation
