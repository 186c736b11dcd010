// `import SwiftData` gives code Foundation (for `#Predicate`, `SortDescriptor`, `Date`) and
// Observation (the `@Model` expansion uses `Observation.ObservationRegistrar`); so must we.
@_exported import Foundation
@_exported import Observation
