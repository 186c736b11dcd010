import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing

/// `trips --remote` against a real `openswiftdata-server` process on 127.0.0.1.
@Suite struct RemoteTripsTests {
    /// The server binary beside the test bundle, started on a free port; its log is read until it
    /// says where it listens.
    /// Unchecked: `url` is set only while it starts, and the log is behind its mutex.
    final class ServerProcess: @unchecked Sendable {
        let process = Process()
        let output = Pipe()
        private(set) var url = ""
        private let log = Mutex("")
        private let drained = DispatchSemaphore(value: 0)

        convenience init(store: URL, kind: String = "sqlite", token: String) throws {
            try self.init(arguments: ["--store", "\(kind):\(store.path)", "--port", "0", "--token", token])
        }

        /// The server with these arguments, and this process's environment without
        /// `OPENSWIFTDATA_*` variables but with `environment`.
        init(arguments: [String], environment: [String: String] = [:]) throws {
            process.executableURL = TripsRunner.executable.deletingLastPathComponent().appendingPathComponent("openswiftdata-server")
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("OPENSWIFTDATA_") }
                .merging(environment) { $1 }
            process.standardOutput = output
            process.standardError = output
            try process.run()
            var text = ""
            while url.isEmpty {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw ServerFailure(log: text) }
                text += String(decoding: chunk, as: UTF8.self)
                if let range = text.range(of: #"listening on (https?://127\.0\.0\.1:\d+)"#, options: .regularExpression) {
                    url = String(text[range].dropFirst("listening on ".count))
                }
            }
            log.withLock { $0 = text }
            // The rest of the log is read as it comes, so that a server logging every request
            // never blocks on a full pipe.
            Thread { [self] in
                while true {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    log.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
                }
                drained.signal()
            }.start()
        }

        /// SIGTERM, then the rest of the log and the exit status.
        func terminate() -> (status: Int32, log: String) {
            process.terminate()
            process.waitUntilExit()
            drained.wait()
            return (process.terminationStatus, log.withLock { $0 })
        }
    }

    struct ServerFailure: Error {
        let log: String
    }

    func trips(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try TripsRunner.execute(arguments) { environment in
            environment["LC_ALL"] = "C"
            environment.removeValue(forKey: "OPENSWIFTDATA_TOKEN")
        }
    }

    @Test func tripsWorksAgainstARunningServerThatStopsGracefully() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("remote-trips-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(store: directory.appendingPathComponent("server.store"), token: "trips-secret")
        let remote = ["--remote", server.url, "--token", "trips-secret"]

        let added = try trips(remote + ["add", "Oslo", "--destination", "Norway", "--start", "2026-07-01", "--end", "2026-07-03", "--budget", "800"])
        #expect(added.status == 0)
        #expect(added.output == "Added #1 Oslo (Norway, 2026-07-01)\n")
        #expect(try trips(remote + ["bucket", "add", "Oslo", "Opera house"]).status == 0)
        let listed = try trips(remote + ["list"])
        #expect(listed.output == """
            #  Name  Destination  Start       End         Days  Budget
            -  ----  -----------  ----------  ----------  ----  ------
            1  Oslo  Norway       2026-07-01  2026-07-03     3  800.00

            """)
        let wrongToken = try trips(["--remote", server.url, "--token", "guess", "list"])
        #expect(wrongToken.status == 1)
        #expect(wrongToken.output.contains("unauthorized: The server refused /v1/rows: The bearer token is not one this server accepts"))

        let stopped = server.terminate()
        #expect(stopped.status == 0)
        #expect(stopped.log.contains("openswiftdata-server stopped"))
        // What the server stored is an ordinary default store file.
        let local = try trips(["list", "--store", directory.appendingPathComponent("server.store").path])
        #expect(local.output == listed.output)
    }

    @Test func tripsWithoutATokenForTheServerExplainsWhatToPass() throws {
        let result = try trips(["--remote", "http://127.0.0.1:9", "list"])
        #expect(result.status == 64)
        #expect(result.output.contains("--remote needs the server's token: pass --token or set OPENSWIFTDATA_TOKEN."))
    }

    @Test func plainHTTPToAnotherMachineIsRefusedUnlessAllowed() throws {
        let refused = try trips(["--remote", "http://192.0.2.1:8080", "--token", "t", "list"])
        #expect(refused.status == 64)
        #expect(refused.output.hasPrefix("Error: --remote http:// to 192.0.2.1 would send the token unencrypted to another machine. Use https://, or pass --allow-insecure-http on a network you trust.\n"))
        let sync = try trips(["sync", "--remote", "http://192.0.2.1:8080", "--token", "t"])
        #expect(sync.status == 64)
        #expect(sync.output.contains("would send the token unencrypted to another machine"))
        // Allowed, the request goes out, and the test network's address never answers.
        let allowed = try trips(["--allow-insecure-http", "--remote", "http://192.0.2.1:8080", "--token", "t", "list"])
        #expect(allowed.status == 1)
        #expect(allowed.output.hasPrefix("Error: "))
        #expect(!allowed.output.contains("unencrypted"))
    }

    @Test func aServerThatIsDownFailsWithinSecondsNamingItsURL() throws {
        let started = ContinuousClock.now
        let result = try trips(["--remote", "http://127.0.0.1:9", "--token", "t", "list"])
        let elapsed = ContinuousClock.now - started
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("Error: unreachable: "))
        #expect(result.output.contains("http://127.0.0.1:9"))
        #expect(elapsed < .seconds(30), "three attempts of a one-second connect timeout, not three of a 30 s request timeout")
    }

    @Test func tripsOfAJSONServerAreNumberedByPositionAndDeletedByThatNumber() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("remote-trips-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(store: directory.appendingPathComponent("trips.json"), kind: "json", token: "trips-secret")
        defer { _ = server.terminate() }
        let remote = ["--remote", server.url, "--token", "trips-secret"]

        #expect(try trips(remote + ["add", "Oslo", "--destination", "Norway", "--start", "2026-07-01"]).output == "Added #1 Oslo (Norway, 2026-07-01)\n")
        #expect(try trips(remote + ["add", "Rome", "--destination", "Italy", "--start", "2026-03-01"]).output == "Added #1 Rome (Italy, 2026-03-01)\n")
        #expect(try trips(remote + ["list"]).output == """
            #  Name  Destination  Start       End         Days  Budget
            -  ----  -----------  ----------  ----------  ----  ------
            1  Rome  Italy        2026-03-01  2026-03-01     1    0.00
            2  Oslo  Norway       2026-07-01  2026-07-01     1    0.00

            """)
        #expect(try trips(remote + ["delete", "2"]).output == "Deleted #2 Oslo\n")
        #expect(try trips(remote + ["list", "--json"]).output.contains(#""name" : "Rome""#))
        #expect(!(try trips(remote + ["list"]).output.contains("Oslo")))
    }

    @Test func metricsOfARunningServerCountTheRequestsTripsMade() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("remote-trips-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(store: directory.appendingPathComponent("trips.store"), token: "trips-secret")
        defer { _ = server.terminate() }
        let remote = ["--remote", server.url, "--token", "trips-secret"]
        // add: a fetch for a trip with the same name and start, the save, a fetch to number it;
        // list: the listing and the numbering.
        #expect(try trips(remote + ["add", "Oslo", "--destination", "Norway", "--start", "2026-07-01"]).status == 0)
        #expect(try trips(remote + ["list"]).status == 0)

        var request = URLRequest(url: URL(string: server.url + "/metrics")!)
        let (_, refused) = try await URLSession.shared.data(for: request)
        #expect((refused as? HTTPURLResponse)?.statusCode == 401)
        request.setValue("Bearer trips-secret", forHTTPHeaderField: "Authorization")
        let (body, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let lines = Set(String(decoding: body, as: UTF8.self).split(separator: "\n").map(String.init))
        #expect(lines.contains(#"openswiftdata_server_requests_total{route="/v1/rows"} 4"#))
        #expect(lines.contains(#"openswiftdata_server_requests_total{route="/v1/save"} 1"#))
        #expect(lines.contains(#"openswiftdata_server_request_errors_total{route="/v1/rows"} 0"#))
    }
}
