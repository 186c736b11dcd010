// `import OpenSwiftData` gives the whole library: the model layer and the DataStore API (the core),
// the macros and operators (the surface), the SQL renderer custom SQL stores reuse, and the SQLite
// store here. `import SwiftData` gives only SwiftData's own names of it.
@_exported import OpenSwiftDataCore
@_exported import OpenSwiftDataSurface
@_exported import OpenSwiftDataSQL
