import Foundation

/// Scaling out (issue 26), shortened from `ThreeServerTests`: three StoreServers on one PostgreSQL
/// database and sixteen RemoteStore clients spread over them, each saving one new user per save
/// for ten seconds, every other save under one of 40 ids all clients share, so that inserts meet
/// on the `#Unique` id in different servers.
enum ThreeServers {
    static let servers = 3
    static let clients = 16
    static let duration = Duration.seconds(10)
    static let sharedIDs = 40
}

protocol ThreeServersSubject {
    /// Saves from every client until `duration` has passed; how many saves were acknowledged and
    /// the seconds from the first save to the last client's end.
    func saveConcurrently(for duration: Duration) throws -> (saves: Int, seconds: Double)
}

extension Driver {
    /// Each run on a fresh database and fresh servers; records saves per second, not milliseconds.
    static func threeServers(runs: Int, make: () throws -> any ThreeServersSubject) throws -> ChildReport {
        var report = ChildReport()
        for _ in 0..<runs {
            let result = try make().saveConcurrently(for: ThreeServers.duration)
            report.timings[Phase.savesPerSecond.rawValue, default: []].append(Double(result.saves) / result.seconds)
        }
        return report
    }
}
