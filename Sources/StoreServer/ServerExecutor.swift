/// The executor a ``StoreServer`` runs its tasks on: ``WorkerThreads`` of its own instead of the
/// cooperative pool. A process that hosts a server and also calls it synchronously (a RemoteStore
/// in the same process, as tests and embedded setups do) blocks cooperative threads while it
/// waits; on a small machine that can be every one of them, and the server would never answer.
final class ServerExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = ServerExecutor()
    private let threads = WorkerThreads(name: "StoreServer", count: 4)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        threads.submit { job.runSynchronously(on: executor) }
    }
}
