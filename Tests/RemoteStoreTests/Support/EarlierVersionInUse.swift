import Foundation
import OpenSwiftData
import SampleTrips

/// A thread building `TripsSchemaV1`'s schema over and over, so its `Trip` is the type last
/// registered under that name, until `stop()` returns.
final class EarlierVersionInUse: @unchecked Sendable {
    private let lock = NSLock()
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)

    init() {
        Thread { [self] in
            while !lock.withLock({ stopping }) { _ = Schema(versionedSchema: TripsSchemaV1.self) }
            finished.signal()
        }.start()
    }

    func stop() {
        lock.withLock { stopping = true }
        finished.wait()
    }
}
