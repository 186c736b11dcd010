import PostgresStore
import Testing

@Suite struct PostgresStoreConfigurationTests {
    @Test func urlGivesEveryConnectionSetting() throws {
        let configuration = try PostgresStoreConfiguration(url: "postgres://app:s%40cret@db.example:6543/trips?sslmode=require")
        #expect(configuration.host == "db.example")
        #expect(configuration.port == 6543)
        #expect(configuration.username == "app")
        #expect(configuration.password == "s@cret")
        #expect(configuration.database == "trips")
        #expect(configuration.tls == .require)
    }

    @Test func urlWithoutDatabaseIsRefusedWithoutItsPassword() throws {
        let error = try #require(throws: PostgresStoreError.self) { try PostgresStoreConfiguration(url: "postgres://app:hunter2@db:5432") }
        #expect(error.code == .invalidConfiguration)
        #expect(!error.message.contains("hunter2"))
    }
}
