import Foundation
import Testing

/// `trips sync` between two local stores and a real `openswiftdata-server` process on 127.0.0.1.
@Suite struct SyncTripsTests {
    /// Two local stores in a temporary directory, and `trips` run on either.
    struct Clients {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-trips-\(UUID().uuidString)")

        init() throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        /// `trips ARGUMENTS --store NAME.store`: standard output and error together.
        func trips(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
            try TripsRunner.execute(arguments + ["--store", path("\(name).store")]) { environment in
                environment["LC_ALL"] = "C"
                environment.removeValue(forKey: "OPENSWIFTDATA_TOKEN")
            }
        }

        func sync(_ name: String, _ server: String) throws -> (status: Int32, output: String) {
            try trips(name, ["sync", "--remote", server, "--token", "sync-secret"])
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    @Test func twoClientsThatEditWhileTheServerIsDownConvergeWhenItIsBack() throws {
        let clients = try Clients()
        defer { clients.remove() }
        let serverStore = clients.directory.appendingPathComponent("server.store")
        var server = try RemoteTripsTests.ServerProcess(store: serverStore, token: "sync-secret")

        #expect(try clients.trips("a", ["add", "Oslo", "--destination", "Norway", "--start", "2026-07-01", "--end", "2026-07-03", "--budget", "800"]).status == 0)
        #expect(try clients.sync("a", server.url) == (0, "Pushed 1 change to \(server.url).\nNothing new to pull.\n"))
        // A client that never synced starts a new store and takes the server's trips.
        #expect(try clients.sync("b", server.url) == (0, "Nothing to push.\nPulled 1 change: 1 trip added (#1 Oslo).\n"))
        #expect(server.terminate().status == 0)

        // Offline: both edit, one of them the same attribute.
        #expect(try clients.trips("a", ["edit", "Oslo", "--budget", "950", "--destination", "Norge"]).status == 0)
        #expect(try clients.trips("a", ["bucket", "add", "Oslo", "Opera house"]).status == 0)
        #expect(try clients.trips("b", ["edit", "Oslo", "--notes", "Ferry to Bygdøy", "--destination", "Oslo, Norway"]).status == 0)
        #expect(try clients.trips("b", ["add", "Bergen", "--destination", "Norway", "--start", "2026-07-04"]).status == 0)
        let offline = try clients.sync("a", server.url)
        #expect(offline.status == 1)
        #expect(offline.output.hasPrefix("""
            Error: offline: \(server.url) is unreachable, so nothing was synced. The 2 local changes not synced yet stay in \
            \(clients.path("a.store")), and trips works on the store as before; run `trips sync` again when the server is back.
            Cause: The server at \(server.url) could not be reached (
            """))
        #expect(try clients.trips("a", ["list"]).output.contains("Oslo  Norge        2026-07-01  2026-07-03     3  950.00"))

        server = try RemoteTripsTests.ServerProcess(store: serverStore, token: "sync-secret")
        defer { _ = server.terminate() }
        #expect(try clients.sync("a", server.url) == (0, "Pushed 2 changes to \(server.url).\nNothing new to pull.\n"))
        #expect(try clients.sync("b", server.url)
            == (0, "Pushed 2 changes to \(server.url).\nPulled 2 changes: 1 trip changed (#1 Oslo), 1 bucket-list item added.\n"))
        #expect(try clients.sync("a", server.url) == (0, "Nothing to push.\nPulled 2 changes: 1 trip added (#2 Bergen), 1 trip changed (#1 Oslo).\n"))

        // The destination both changed is the one the server took last (b's); every other edit is kept.
        let expected = """
            #  Name    Destination   Start       End         Days  Budget
            -  ------  ------------  ----------  ----------  ----  ------
            1  Oslo    Oslo, Norway  2026-07-01  2026-07-03     3  950.00
            2  Bergen  Norway        2026-07-04  2026-07-04     1    0.00

            """
        #expect(try clients.trips("a", ["list"]).output == expected)
        #expect(try clients.trips("b", ["list"]).output == expected)
        let shown = try clients.trips("a", ["show", "Oslo"]).output
        #expect(shown.contains("Notes        Ferry to Bygdøy\n"))
        #expect(shown.hasSuffix("Bucket list  1 item\n             [ ] Opera house\n"))
        #expect(try clients.trips("b", ["show", "Oslo"]).output == shown)
    }

    @Test func syncWithoutATokenSaysWhereToGetOne() throws {
        let clients = try Clients()
        defer { clients.remove() }
        let result = try clients.trips("a", ["sync", "--remote", "http://127.0.0.1:9"])
        #expect(result.status == 64)
        #expect(result.output.contains("trips sync needs the server's token: pass --token or set OPENSWIFTDATA_TOKEN."))
    }
}
