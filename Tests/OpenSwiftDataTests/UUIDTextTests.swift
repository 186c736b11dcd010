import Foundation
import OpenSwiftData
import Testing

@Suite struct UUIDTextTests {
    @Test(arguments: ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
                      "0123ABCD-4567-89EF-FEDC-BA9876543210"])
    func canonicalStringIsFoundationsUUIDString(text: String) throws {
        let uuid = try #require(UUID(uuidString: text))
        #expect(uuid.canonicalString == text)
        #expect(uuid.canonicalString == uuid.uuidString)
    }

    @Test func lowerCaseTextParsesToTheSameUUID() {
        #expect(UUID(canonicalString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f") == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    }

    @Test(arguments: ["", "E621E1F8", "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5G", "E621E1F8_C36C-495A-93FC-0C247A3E6E5F",
                      " E621E1F8-C36C-495A-93FC-0C247A3E6E5F"])
    func textFoundationRefusesIsRefused(text: String) {
        #expect(UUID(uuidString: text) == nil)
        #expect(UUID(canonicalString: text) == nil)
    }
}
