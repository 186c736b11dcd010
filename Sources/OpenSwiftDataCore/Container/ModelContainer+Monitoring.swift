import CoreMetrics
import Logging
import Synchronization

extension ModelContainer {
    /// The logger OpenSwiftData writes to. It discards everything until you set one, so a
    /// command-line tool's output stays its own:
    ///
    /// ```swift
    /// ModelContainer.logger = Logger(label: "OpenSwiftData")
    /// ```
    ///
    /// Containers log opening each store (info), fetches and saves slower than
    /// ``slowOperationThreshold`` (warning), the default store's SQL statements that take at least
    /// that long (warning, with the statement's text), each stage of a schema migration (info, see
    /// ``SchemaMigrator``) and store failures (error); messages carry the store's name and the
    /// entity, never stored values.
    public static var logger: Logger {
        get { monitoring.withLock { $0.logger } }
        set { monitoring.withLock { $0.logger = newValue } }
    }

    /// A fetch or save that takes longer than this, or a statement of the default store that takes
    /// at least this long, is logged as slow (default: one second). SQLite times its statements in
    /// whole milliseconds, so zero logs every statement.
    public static var slowOperationThreshold: Duration {
        get { .nanoseconds(slowOperationNanoseconds.load(ordering: .relaxed)) }
        set {
            let nanoseconds = newValue / .nanoseconds(1)
            slowOperationNanoseconds.store(nanoseconds >= Double(Int64.max) ? .max : Int64(max(0, nanoseconds)), ordering: .relaxed)
        }
    }

    /// Where containers created from now on record their metrics (swift-metrics): `nil`, the
    /// default, means the process's `MetricsSystem` as bootstrapped when each container is created.
    ///
    /// Each container's stores count fetch and save requests (`openswiftdata_fetches_total`,
    /// `openswiftdata_saves_total`, `openswiftdata_store_errors_total`) and time them
    /// (`openswiftdata_fetch_duration`, `openswiftdata_save_duration`), labelled with the store's
    /// configuration name. Fetch counts include counts and identifier fetches.
    public static var metricsFactory: (any MetricsFactory)? {
        get { monitoring.withLock { $0.metricsFactory } }
        set { monitoring.withLock { $0.metricsFactory = newValue } }
    }
}

/// The settings behind ``ModelContainer/logger`` and its siblings.
struct MonitoringSettings: @unchecked Sendable {
    var logger = Logger(label: "OpenSwiftData", factory: { _ in SwiftLogNoOpLogHandler() })
    var metricsFactory: (any MetricsFactory)?
}

let monitoring = Mutex(MonitoringSettings())
/// Read on every fetch and save, so an atomic rather than under the lock.
package let slowOperationNanoseconds = Atomic<Int64>(1_000_000_000)
