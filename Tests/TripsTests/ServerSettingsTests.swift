import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// openswiftdata-server's settings: flags over OPENSWIFTDATA_* variables over a JSON config file.
@Suite struct ServerSettingsTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("server-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func writeConfig(_ json: String) throws -> String {
        let file = directory.appendingPathComponent("server.json")
        try Data(json.utf8).write(to: file)
        return file.path
    }

    func status(listing server: RemoteTripsTests.ServerProcess, token: String) throws -> Int32 {
        try TripsRunner.execute(["--remote", server.url, "--token", token, "list"]) { $0["LC_ALL"] = "C" }.status
    }

    @Test func aConfigFileAloneConfiguresTheServer() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try writeConfig(#"{"store": "sqlite:\#(directory.path)/file.store", "port": 0, "tokens": ["file-token"]}"#)
        let server = try RemoteTripsTests.ServerProcess(arguments: ["--config", config])
        defer { _ = server.terminate() }
        #expect(try status(listing: server, token: "file-token") == 0)
        #expect(try status(listing: server, token: "other") == 1)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("file.store").path))
    }

    @Test func theEnvironmentOverridesTheFileAndFlagsOverrideBoth() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try writeConfig(#"{"store": "memory", "port": 0, "tokens": ["file-token"]}"#)
        let fromEnvironment = try RemoteTripsTests.ServerProcess(arguments: [], environment: [
            "OPENSWIFTDATA_CONFIG": config, "OPENSWIFTDATA_TOKENS": "env-token, second",
        ])
        #expect(try status(listing: fromEnvironment, token: "second") == 0)
        #expect(try status(listing: fromEnvironment, token: "file-token") == 1)
        _ = fromEnvironment.terminate()

        let fromFlags = try RemoteTripsTests.ServerProcess(arguments: ["--config", config, "--token", "flag-token"],
                                                         environment: ["OPENSWIFTDATA_TOKENS": "env-token"])
        #expect(try status(listing: fromFlags, token: "flag-token") == 0)
        #expect(try status(listing: fromFlags, token: "env-token") == 1)
        _ = fromFlags.terminate()
    }

    @Test func eachTokenSettingGrantsItsRole() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try writeConfig(#"{"store": "memory", "port": 0, "readTokens": ["reader"]}"#)
        let server = try RemoteTripsTests.ServerProcess(arguments: ["--config", config, "--admin-token", "ops"],
                                                        environment: ["OPENSWIFTDATA_TOKENS": "app"])
        defer { _ = server.terminate() }
        let add = ["add", "Oslo", "--destination", "Norway", "--start", "2026-07-01"]
        let refused = try TripsRunner.execute(["--remote", server.url, "--token", "reader"] + add) { $0["LC_ALL"] = "C" }
        #expect(refused.status == 1)
        #expect(refused.output.contains("This request needs a token with the write scope; this one has read."))
        #expect(try TripsRunner.execute(["--remote", server.url, "--token", "app"] + add) { $0["LC_ALL"] = "C" }.status == 0)
        #expect(try status(listing: server, token: "reader") == 0)
        var statuses: [String: Int] = [:]
        for token in ["reader", "app", "ops"] {
            var request = URLRequest(url: URL(string: server.url + "/v1/batch-delete")!)
            request.httpMethod = "POST"
            request.httpBody = Data(#"{"query":{"entityName":"Trip","sortBy":[]}}"#.utf8)
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            statuses[token] = (try await URLSession.shared.data(for: request).1 as? HTTPURLResponse)?.statusCode
        }
        #expect(statuses == ["reader": 403, "app": 403, "ops": 204])
    }

    @Test func aSettingOfTheWrongFormIsNamedWithWhereItCanComeFrom() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try run(["--store", "memory", "--token", "t"], environment: ["OPENSWIFTDATA_PORT": "eighty"])
        #expect(result.status == 64)
        #expect(result.output.hasPrefix("Error: The setting port (a flag, OPENSWIFTDATA_PORT or \"port\" in the config file) has the wrong form: "))
        let missing = try run(["--config", directory.appendingPathComponent("absent.json").path])
        #expect(missing.status == 64)
        #expect(missing.output.hasPrefix("Error: The config file \(directory.path)/absent.json could not be read: "))
    }

    /// The server run to completion (it exits at once on a bad setting); its output.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let server = TripsRunner.executable.deletingLastPathComponent().appendingPathComponent("openswiftdata-server")
        return try TripsRunner.execute(arguments, executable: server) { variables in
            variables = variables.filter { !$0.key.hasPrefix("OPENSWIFTDATA_") }.merging(environment) { $1 }
        }
    }
}
