import Foundation

/// A fixed set of threads of the server's own, running submitted jobs in order of submission.
///
/// Not Dispatch's global queues: on Linux those share their threads with Swift's cooperative pool,
/// so a process whose cooperative threads all wait (on a synchronous RemoteStore call to this very
/// server, say) would leave the server no thread to answer on.
final class WorkerThreads: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var next = 0

    init(name: String, count: Int) {
        for index in 0..<count {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while next == jobs.count { condition.wait() }
            let job = jobs[next]
            next += 1
            // Drop the jobs taken so far once the queue has drained, so it does not grow forever.
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            }
            condition.unlock()
            job()
        }
    }
}
