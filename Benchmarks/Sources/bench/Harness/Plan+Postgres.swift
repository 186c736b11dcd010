/// Where the PostgreSQL contenders run, and what they are compared with: OpenSwiftData's
/// PostgresStore with PostgresNIO by hand, as the SQLite stores are with raw SQLite.
extension Contender {
    var isPostgres: Bool { self == .postgresRaw || self == .osdPostgres }

    /// The contender whose times this one's ratios are taken to; nil for a baseline.
    var baseline: Contender? {
        switch self {
        case .rawSQLite, .postgresRaw: nil
        case .osdPostgres: .postgresRaw
        default: .rawSQLite
        }
    }
}

extension Phase {
    /// The ratio to PG raw that PostgresStore should stay under; nil where none is set.
    var postgresTarget: Double? {
        switch self {
        case .insert, .fetch, .update, .lookup: 1.5
        default: nil
        }
    }
}

extension Workload {
    /// The workloads whose figure is a rate, shown in the PostgreSQL section instead of the time table.
    var isThroughput: Bool { self == .threeServers }

    /// The workloads left out of the time table, each shown in a section of its own.
    var hasSectionOfItsOwn: Bool { isThroughput || self == .sync }

    func postgresSkipReason(_ contender: Contender) -> String? {
        switch (self, contender) {
        case (.threeServers, .osdPostgres), (.simple, .postgresRaw), (.simple, .osdPostgres), (.simpleUnique, .postgresRaw),
             (.simpleUnique, .osdPostgres), (.lookup, .postgresRaw), (.lookup, .osdPostgres):
            nil
        case (.threeServers, _):
            "not run: three StoreServers on one PostgreSQL database, OpenSwiftData only (osd-pg)"
        case (_, .postgresRaw), (_, .osdPostgres):
            "not run: PostgreSQL runs simple, simple-unique, lookup and three-servers"
        default:
            nil
        }
    }
}
