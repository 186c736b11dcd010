import CoreMetrics
import Dispatch
import Logging

/// One store's metrics and log, made when its container opens it. Each fetch or save reads the
/// clock twice and calls the metrics handlers once; with no metrics backend those are no-ops, and
/// nothing is allocated per request.
final class StoreInstruments: Sendable {
    enum Operation: String {
        case fetch, save
    }

    private let storeName: String
    private let fetches: Counter
    private let saves: Counter
    private let fetchErrors: Counter
    private let saveErrors: Counter
    private let fetchDuration: CoreMetrics.Timer
    private let saveDuration: CoreMetrics.Timer

    init(storeName: String) {
        self.storeName = storeName
        let factory = ModelContainer.metricsFactory ?? MetricsSystem.factory
        let store = [("store", storeName)]
        fetches = Counter(label: "openswiftdata_fetches_total", dimensions: store, factory: factory)
        saves = Counter(label: "openswiftdata_saves_total", dimensions: store, factory: factory)
        fetchErrors = Counter(label: "openswiftdata_store_errors_total", dimensions: store + [("operation", "fetch")], factory: factory)
        saveErrors = Counter(label: "openswiftdata_store_errors_total", dimensions: store + [("operation", "save")], factory: factory)
        fetchDuration = CoreMetrics.Timer(label: "openswiftdata_fetch_duration", dimensions: store, factory: factory)
        saveDuration = CoreMetrics.Timer(label: "openswiftdata_save_duration", dimensions: store, factory: factory)
    }

    /// Runs one store request, counting and timing it, and logging it when slow or failed.
    /// A store's request to filter or sort in memory is how it answers, not a failure.
    @inline(__always)
    func measure<Result>(_ operation: Operation, entity: @autoclosure () -> String, _ body: () throws -> Result) throws -> Result {
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let result = try body()
            finish(operation, entity: entity, started: start, failure: nil)
            return result
        } catch let error as DataStoreError where error == .preferInMemoryFilter || error == .preferInMemorySort {
            finish(operation, entity: entity, started: start, failure: nil)
            throw error
        } catch {
            finish(operation, entity: entity, started: start, failure: error)
            throw error
        }
    }

    private func finish(_ operation: Operation, entity: () -> String, started: UInt64, failure: (any Error)?) {
        let elapsed = DispatchTime.now().uptimeNanoseconds &- started
        switch operation {
        case .fetch:
            fetches.increment()
            fetchDuration.recordNanoseconds(Int64(clamping: elapsed))
            if failure != nil { fetchErrors.increment() }
        case .save:
            saves.increment()
            saveDuration.recordNanoseconds(Int64(clamping: elapsed))
            if failure != nil { saveErrors.increment() }
        }
        if let failure {
            ModelContainer.logger.error("The store failed a \(operation.rawValue)", metadata: [
                "store": "\(storeName)", "entity": "\(entity())", "error": "\(failure)",
            ])
        } else if Int64(clamping: elapsed) > slowOperationNanoseconds.load(ordering: .relaxed) {
            ModelContainer.logger.warning("Slow \(operation.rawValue)", metadata: [
                "store": "\(storeName)", "entity": "\(entity())", "milliseconds": "\(elapsed / 1_000_000)",
            ])
        }
    }
}
