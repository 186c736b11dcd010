import ArgumentParser
import Configuration
import Foundation
import StoreServer
import SystemPackage

/// The server's settings through swift-configuration, the first source that has a setting winning:
/// command-line flags, then `OPENSWIFTDATA_*` environment variables (`OPENSWIFTDATA_PORT`,
/// `OPENSWIFTDATA_TOKENS` comma-separated, `OPENSWIFTDATA_MAX_BODY_SIZE`, …), then the JSON file
/// named by `--config` or `OPENSWIFTDATA_CONFIG` (`{"store": "sqlite:/srv/app.store", "port": 8080,
/// "tokens": ["…"]}`), then the defaults.
///
/// Tokens come in three settings, one per role: `tokens` may read and save, `readTokens` only
/// read, `adminTokens` also batch-delete and delete history.
struct ServerSettings {
    var store: String
    var host: String
    var port: Int
    /// Each token and its scopes, a token in several settings having all their scopes.
    var tokens: [String: Set<StoreServerConfiguration.Scope>]
    var maxBodySize: Int
    var timeLimit: Int
    var logLevel: String
    /// The data browser's mode (`read` or `edit`), nil when it is not served.
    var browse: String?
    /// The PEM files of the certificate and key to serve HTTPS with; both or neither.
    var tlsCertificate: String?
    var tlsKey: String?
    /// The browser origins allowed to call the API (CORS); none by default.
    var corsOrigins: [String]

    /// The keys, as the config file spells them; the environment variables are these in upper
    /// snake case after `OPENSWIFTDATA_`.
    enum Key: String, CaseIterable {
        case store, host, port, tokens, readTokens, adminTokens, maxBodySize, timeLimit, logLevel, browse, config
        case tlsCertificate, tlsKey, corsOrigins

        /// The token settings and the scopes each grants.
        static let tokenRoles: [(Key, Set<StoreServerConfiguration.Scope>)] = [
            (.tokens, StoreServerConfiguration.Scope.standard), (.readTokens, [.read]), (.adminTokens, [.read, .write, .admin]),
        ]
    }

    static func read(flags: [Key: ConfigContent]) async throws -> ServerSettings {
        let flagProvider = InMemoryProvider(name: "flags", values: Dictionary(uniqueKeysWithValues: flags.map { key, content in
            (AbsoluteConfigKey([key.rawValue]), ConfigValue(content, isSecret: Key.tokenRoles.contains { $0.0 == key }))
        }))
        let environment = EnvironmentVariablesProvider(secretsSpecifier: .specific(Set(Key.tokenRoles.map { "OPENSWIFTDATA_\(environmentName($0.0))" })))
            .prefixKeys(with: "openswiftdata")
        let early = ConfigReader(providers: [flagProvider, environment])
        var providers: [any ConfigProvider] = [flagProvider, environment]
        if let file = try read(.config, from: early, { try early.requiredString(forKey: $0) }) {
            do {
                providers.append(try await FileProvider<JSONSnapshot>(filePath: FilePath(file)))
            } catch {
                throw ValidationError("The config file \(file) could not be read: \(error)")
            }
        }
        let config = ConfigReader(providers: providers)
        guard let store = try read(.store, from: config, { try config.requiredString(forKey: $0) }) else {
            throw ValidationError("Say which store to serve: --store, OPENSWIFTDATA_STORE or \"store\" in the config file (sqlite:PATH, json:PATH, memory or postgres://…).")
        }
        return ServerSettings(
            store: store,
            host: try read(.host, from: config, { try config.requiredString(forKey: $0) }) ?? "127.0.0.1",
            port: try read(.port, from: config, { try config.requiredInt(forKey: $0) }) ?? 8080,
            tokens: try tokens(from: config),
            maxBodySize: try read(.maxBodySize, from: config, { try config.requiredInt(forKey: $0) }) ?? 4 << 20,
            timeLimit: try read(.timeLimit, from: config, { try config.requiredInt(forKey: $0) }) ?? 30,
            logLevel: try read(.logLevel, from: config, { try config.requiredString(forKey: $0) }) ?? "info",
            browse: try read(.browse, from: config, { try config.requiredString(forKey: $0) }),
            tlsCertificate: try read(.tlsCertificate, from: config, { try config.requiredString(forKey: $0) }),
            tlsKey: try read(.tlsKey, from: config, { try config.requiredString(forKey: $0) }),
            corsOrigins: (try read(.corsOrigins, from: config, { try config.requiredStringArray(forKey: $0) }) ?? [])
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    /// The certificate and key to serve HTTPS with, nil for plain HTTP; one without the other
    /// is an error that says which is missing.
    func tls() throws -> StoreServerConfiguration.TLS? {
        switch (tlsCertificate, tlsKey) {
        case (nil, nil):
            return nil
        case (let certificate?, let key?):
            return try StoreServerConfiguration.TLS(certificateFile: certificate, privateKeyFile: key)
        case (_?, nil):
            throw ValidationError("A TLS certificate needs its private key: give --tls-key (OPENSWIFTDATA_TLS_KEY, \"tlsKey\" in the config file) with --tls-certificate.")
        case (nil, _?):
            throw ValidationError("A TLS private key needs its certificate: give --tls-certificate (OPENSWIFTDATA_TLS_CERTIFICATE, \"tlsCertificate\" in the config file) with --tls-key.")
        }
    }

    private static func tokens(from config: ConfigReader) throws -> [String: Set<StoreServerConfiguration.Scope>] {
        var tokens: [String: Set<StoreServerConfiguration.Scope>] = [:]
        for (key, scopes) in Key.tokenRoles {
            let values = try read(key, from: config, { try config.requiredStringArray(forKey: $0, isSecret: true) }) ?? []
            for token in values.map({ $0.trimmingCharacters(in: .whitespaces) }) where !token.isEmpty {
                tokens[token, default: []].formUnion(scopes)
            }
        }
        return tokens
    }

    /// A setting, `nil` where no source has it; one a source has in the wrong form is an error
    /// that names where it can come from.
    private static func read<T>(_ key: Key, from config: ConfigReader, _ value: (ConfigKey) throws -> T) throws -> T? {
        do {
            return try value(ConfigKey(key.rawValue))
        } catch where "\(error)".hasPrefix("Missing required config value") {
            return nil
        } catch {
            throw ValidationError("The setting \(key.rawValue) (a flag, OPENSWIFTDATA_\(environmentName(key)) or \"\(key.rawValue)\" in the config file) has the wrong form: \(error)")
        }
    }

    static func environmentName(_ key: Key) -> String {
        key.rawValue.reduce(into: "") { name, character in
            if character.isUppercase { name += "_" }
            name += character.uppercased()
        }
    }
}
