import AuthCore
import Foundation
import Testing

/// `AdminAPIKeyStore`: the admin API's keys.
enum AdminAPIKeyContract {
    static let cases: [ContractCase] = [
        ContractCase("AdminAPIKeyStore.insertAPIKey: stored as given; a taken name writes nothing", insert),
        ContractCase("AdminAPIKeyStore.revokeAPIKey: once; unknown or revoked gives false", revoke),
        ContractCase("AdminAPIKeyStore.markAPIKeyUsed: never moves back", markUsed),
    ]

    static func key(_ id: String, _ name: String, _ f: ContractFixture, at seconds: TimeInterval,
                    scopes: Set<AdminScope> = [.usersRead, .linksIssue], expiresIn: TimeInterval? = nil) -> AdminAPIKey {
        AdminAPIKey(id: id, name: name, scopes: scopes, secretHash: f.digest(), createdAt: f.at(seconds),
                    expiresAt: expiresIn.map { f.at(seconds + $0) })
    }

    static func insert(_ f: ContractFixture) throws {
        let support = key("00000000000000a1", "support-tool", f, at: 10, expiresIn: 3600)
        let backOffice = key("00000000000000b2", "back.office_1", f, at: 5, scopes: Set(AdminScope.allCases))
        try f.store.insertAPIKey(support)
        try f.store.insertAPIKey(backOffice)
        #expect(try f.store.apiKey(id: support.id) == support)
        #expect(try f.store.apiKeys() == [backOffice, support], "oldest first")
        #expect(try f.store.apiKey(id: "00000000000000c3") == nil)

        let twin = key("00000000000000c3", "support-tool", f, at: 20)
        #expect(throws: AdminAPIKeyStoreError.nameTaken) { try f.store.insertAPIKey(twin) }
        #expect(try f.store.apiKey(id: twin.id) == nil)
        #expect(try f.store.apiKeys().count == 2)
    }

    static func revoke(_ f: ContractFixture) throws {
        let support = key("00000000000000a1", "support-tool", f, at: 0)
        try f.store.insertAPIKey(support)
        #expect(try f.store.revokeAPIKey(id: support.id, at: f.at(30)))
        #expect(try f.store.apiKey(id: support.id)?.revokedAt == f.at(30))
        #expect(try !f.store.revokeAPIKey(id: support.id, at: f.at(40)), "revoked once")
        #expect(try f.store.apiKey(id: support.id)?.revokedAt == f.at(30), "the first revocation's time stays")
        #expect(try !f.store.revokeAPIKey(id: "00000000000000ff", at: f.at(40)))
    }

    static func markUsed(_ f: ContractFixture) throws {
        let support = key("00000000000000a1", "support-tool", f, at: 0)
        try f.store.insertAPIKey(support)
        try f.store.markAPIKeyUsed(id: support.id, at: f.at(100))
        #expect(try f.store.apiKey(id: support.id)?.lastUsedAt == f.at(100))
        try f.store.markAPIKeyUsed(id: support.id, at: f.at(50))
        #expect(try f.store.apiKey(id: support.id)?.lastUsedAt == f.at(100), "an older call does not move it back")
        try f.store.markAPIKeyUsed(id: support.id, at: f.at(200))
        #expect(try f.store.apiKey(id: support.id)?.lastUsedAt == f.at(200))
        try f.store.markAPIKeyUsed(id: "00000000000000ff", at: f.at(300))
        #expect(try f.store.apiKeys().count == 1)
    }
}
