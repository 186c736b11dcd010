// `import SwiftData` gives SwiftData's whole API: OpenSwiftData where Apple's framework does not
// exist, Apple's framework where it does (Package.swift names this module differently there, so
// that it never hides the framework). The macros' expansions spell `OpenSwiftData.PersistentModel`;
// the re-export makes that module name visible to files that import only SwiftData.
#if canImport(Darwin)
@_exported import SwiftData
#else
@_exported import OpenSwiftData
#endif
