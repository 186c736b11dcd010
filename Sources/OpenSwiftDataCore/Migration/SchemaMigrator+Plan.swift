extension SchemaMigrator {
    /// The plan's schemas in order, once it is known not to contradict itself.
    static func validated(_ plan: any SchemaMigrationPlan.Type) throws -> [Schema] {
        func invalid(_ problem: String) -> SwiftDataError {
            SwiftDataError.loadIssueModelContainer.explaining("The migration plan \(plan) \(problem).")
        }
        guard !plan.schemas.isEmpty else { throw invalid("lists no schemas; list every VersionedSchema in order, the current one last") }
        var seen: Set<Schema.Version> = []
        for versioned in plan.schemas where !seen.insert(versioned.versionIdentifier).inserted {
            throw invalid("lists version \(versioned.versionIdentifier) twice; give each VersionedSchema its own versionIdentifier")
        }
        for stage in plan.stages {
            let (from, to) = stage.versions
            for version in [from, to] where !seen.contains(version) {
                throw invalid("has a stage from \(from) to \(to), but \(version) is not in its schemas; add that VersionedSchema to schemas")
            }
            guard from != to else { throw invalid("has a stage from \(from) to itself") }
        }
        return plan.schemas.map { Schema(versionedSchema: $0) }
    }

    /// The plan's version a store is at: the one with its record's version and shape, else the
    /// last one of its shape (a store recorded without a plan), else the one of its version.
    func version(of stored: StoredSchema, plan: any SchemaMigrationPlan.Type) throws -> Schema {
        let records = versions.map { ($0, StoredSchema($0)) }
        if let exact = records.first(where: { $0.1.version == stored.version && $0.1.hasSameShape(as: stored) }) { return exact.0 }
        if let sameShape = records.last(where: { $0.1.hasSameShape(as: stored) }) { return sameShape.0 }
        if let sameVersion = records.first(where: { $0.1.version == stored.version }) { return sameVersion.0 }
        let listed = versions.map(\.version.description).joined(separator: ", ")
        throw SwiftDataError.unknownDataStoreSchema.explaining("The store '\(storeName)' was written with schema version \(stored.version), which \(plan) does not list (it lists \(listed)). Open it with the app version that wrote it, or add that VersionedSchema and a stage from it to the plan.")
    }

    /// The shortest chain of stages from one version to another. Explicit stages first; a version
    /// of `schemas` with no stage leaving it is joined to the next one by an inferred lightweight stage.
    func path(from start: Schema.Version, to end: Schema.Version, plan: any SchemaMigrationPlan.Type) -> [MigrationStep]? {
        var edges: [Schema.Version: [MigrationStep]] = [:]
        for stage in plan.stages {
            edges[stage.versions.from, default: []].append(MigrationStep(stage, schemas: schemasByVersion))
        }
        for (source, destination) in zip(versions, versions.dropFirst()) where edges[source.version] == nil {
            edges[source.version] = [MigrationStep(inferredFrom: source, to: destination)]
        }
        var reached: [Schema.Version: [MigrationStep]] = [start: []]
        var frontier = [start]
        while !frontier.isEmpty {
            var next: [Schema.Version] = []
            for version in frontier {
                for step in edges[version] ?? [] where reached[step.destination.version] == nil {
                    reached[step.destination.version] = reached[version]! + [step]
                    next.append(step.destination.version)
                }
            }
            if let path = reached[end] { return path }
            frontier = next
        }
        return nil
    }
}

extension EntityRegistry {
    /// Makes a schema's model types the ones its entity names resolve to.
    static func register(_ schema: Schema) {
        register(schema.entities.compactMap(\.modelType))
    }
}
