// `import OpenSwiftData` gives the whole library, as `import SwiftData` does: the model layer and
// the DataStore API (the core), the SQL renderer custom SQL stores reuse, and the SQLite store here.
@_exported import OpenSwiftDataCore
@_exported import OpenSwiftDataSQL
