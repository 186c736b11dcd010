import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `openswiftdata-server --browse`: the data browser beside the API, read-only unless
/// `--browse=edit`, from a flag, `OPENSWIFTDATA_BROWSE` or the config file.
@Suite struct BrowseOptionTests {
    @Test func aBareBrowseFlagServesTheBrowserReadOnlyFromTheRoot() async throws {
        let server = try RemoteTripsTests.ServerProcess(arguments: ["--store", "memory", "--port", "0", "--token", "browse-secret", "--browse"])
        let (body, response) = try await URLSession.shared.data(from: try #require(URL(string: server.url + "/")))
        #expect((response as? HTTPURLResponse)?.url?.path == "/browse/login")
        #expect(String(decoding: body, as: UTF8.self).contains("<h1>Log in</h1>"))
        let (status, log) = server.terminate()
        #expect(status == 0)
        #expect(log.contains("data browser (read-only) at \(server.url)/browse/"))
    }

    @Test(arguments: [(["--browse=edit"], [:]), (["--browse", "edit"], [:]), ([], ["OPENSWIFTDATA_BROWSE": "edit"])])
    func editingComesFromTheFlagOrTheEnvironment(_ flags: [String], _ environment: [String: String]) throws {
        let server = try RemoteTripsTests.ServerProcess(arguments: ["--store", "memory", "--port", "0", "--token", "browse-secret"] + flags,
                                                        environment: environment)
        let (_, log) = server.terminate()
        #expect(log.contains("data browser (editing) at \(server.url)/browse/"))
    }

    @Test func withoutTheFlagThereIsNoBrowser() throws {
        let server = try RemoteTripsTests.ServerProcess(arguments: ["--store", "memory", "--port", "0", "--token", "browse-secret"])
        let (_, log) = server.terminate()
        #expect(!log.contains("data browser"))
    }

    @Test func anUnknownModeIsRefusedWithTheChoices() {
        #expect {
            _ = try RemoteTripsTests.ServerProcess(arguments: ["--store", "memory", "--port", "0", "--token", "browse-secret", "--browse=sideways"])
        } throws: { error in
            ((error as? RemoteTripsTests.ServerFailure)?.log ?? "").contains("--browse takes read or edit (got 'sideways')")
        }
    }
}
