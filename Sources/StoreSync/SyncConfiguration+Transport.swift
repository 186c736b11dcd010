import Foundation

extension SyncConfiguration {
    /// Throws ``SyncError`` `.insecureTransport` when the bearer token would travel over plain
    /// `http://` to another machine and ``allowsInsecureHTTP`` is off. (RemoteStore has the same
    /// rule; StoreSync keeps its own copy to depend on SwiftData's API and Foundation alone.)
    func checkTransport() throws {
        guard !allowsInsecureHTTP, server.scheme?.lowercased() == "http", let host = server.host, !Self.namesThisMachine(host) else { return }
        throw SyncError(.insecureTransport, "The sync engine would send its bearer token unencrypted, over http://, to \(host), which is not this machine. Reach the server over https://, or set SyncConfiguration.allowsInsecureHTTP on a network you trust.")
    }

    /// `localhost` and its subdomains, `127.0.0.0/8` and `::1`: the only hosts where an
    /// unencrypted token never leaves the machine.
    static func namesThisMachine(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard name != "localhost", !name.hasSuffix(".localhost"), name != "::1" else { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
        return parts.count == 4 && parts[0] == 127 && !parts.contains(nil)
    }
}
