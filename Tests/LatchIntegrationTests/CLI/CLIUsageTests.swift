import Foundation
import Testing

/// latchctl's command line without a database: help on every level, usage errors with exit code 2 and one line on
/// stderr, and no password accepted (or echoed) from argv. The database URL points nowhere, proving these paths
/// never connect.
@Suite struct CLIUsageTests {
    let latchctl = Latchctl(databaseURL: "postgresql://nobody@127.0.0.1:1/nowhere")

    @Test(arguments: [
        ["--help"], ["-h"], ["users", "--help"], ["users", "list", "--help"], ["link", "confirm", "-h"],
        ["sessions", "revoke", "--help"], ["outbox", "--help"], ["audit", "--help"], ["tokens", "purge", "--help"],
        ["migrate", "--help"],
    ])
    func helpOnEveryLevelExitsZeroOnStdout(arguments: [String]) throws {
        let result = try latchctl.run(arguments)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasPrefix("usage: latchctl"))
        #expect(result.standardOutput.contains("global options:"))
        #expect(result.standardError.isEmpty)
    }

    @Test func groupHelpListsItsCommandsAndLeafHelpItsOptions() throws {
        let root = try latchctl("--help").standardOutput
        for command in ["migrate", "link", "users", "sessions", "outbox", "audit", "tokens"] {
            #expect(root.contains("\n  \(command) "), "root help lists \(command)")
        }
        let users = try latchctl("users", "--help").standardOutput
        for command in ["list", "show", "create", "confirm", "disable", "enable", "delete"] {
            #expect(users.contains("\n  \(command) "), "users help lists \(command)")
        }
        let link = try latchctl("link", "reset", "--help").standardOutput
        #expect(link.contains("usage: latchctl link reset [--email EMAIL] [--ttl DURATION] [--send]"))
        #expect(link.contains("--send"))
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["users"], "missing command for 'latchctl users'"),
        ([], "missing command for 'latchctl'"),
        (["users", "list", "--bogus"], "unknown option --bogus"),
        (["users", "show", "-x@example.com"], "unknown option '-x' for 'latchctl users show'; put -- before"),
        (["users", "show"], "missing EMAIL"),
        (["users", "show", "a@example.com", "b@example.com"], "too many arguments"),
        (["users", "list", "--limit", "0"], "--limit must be a whole number"),
        (["users", "list", "--limit"], "--limit needs a value"),
        (["users", "list", "--json=yes"], "--json takes no value"),
        (["link", "confirm"], "missing --email"),
        (["link", "confirm", "--email", "a@example.com", "--ttl", "soon"], "--ttl must be a duration"),
        (["sessions", "revoke", "a@example.com"], "give one of --all or --id"),
        (["sessions", "revoke", "a@example.com", "--all", "--id", "x"], "give only one of --all or --id"),
        (["sessions", "revoke", "a@example.com", "--id", "not-a-uuid"], "--id must be a session id"),
        (["outbox", "list", "--pending", "--failed"], "give only one of --pending or --failed"),
        (["outbox", "retry"], "give one of ID or --failed"),
        (["outbox", "retry", "abc"], "ID must be a positive whole number"),
        (["audit", "--since", "yesterday"], "--since must be a duration"),
    ])
    func usageErrorsExitTwoWithOneLine(arguments: [String], message: String) throws {
        let result = try latchctl.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("latchctl: "))
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardError.filter { $0 == "\n" }.count == 1, "exactly one line")
    }

    @Test(arguments: [
        ["users", "create", "a@example.com", "--password", "Sup3r-Secret-Pw"],
        ["users", "create", "a@example.com", "--password=Sup3r-Secret-Pw"],
        ["users", "create", "a@example.com", "Sup3r-Secret-Pw"],
    ])
    func aPasswordInArgvIsRefusedAndNeverEchoed(arguments: [String]) throws {
        let result = try latchctl.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(!result.standardError.contains("Sup3r-Secret-Pw"))
        #expect(!result.standardOutput.contains("Sup3r-Secret-Pw"))
    }

    @Test func configurationErrorsExitTwoAndNameTheVariable() throws {
        let missing = try latchctl("users", "list", environment: ["DATABASE_URL": ""])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("invalid configuration: DATABASE_URL"))
        let badBase = try latchctl("users", "list", environment: ["LATCH_LINK_BASE": "ftp://x"])
        #expect(badBase.status == 2)
        #expect(badBase.standardError.contains("LATCH_LINK_BASE"))
    }

    @Test func commandsThatWriteTheAuditLogNeedAnOperatorName() throws {
        let result = try latchctl("link", "confirm", "--email", "a@example.com", environment: ["USER": ""])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError == "latchctl: say who you are with --actor NAME (USER is not set)\n")
        let control = try latchctl("link", "confirm", "--email", "a@example.com", "--actor", "bad\u{7}name")
        #expect(control.status == 2)
    }

    @Test func anUnreachableDatabaseIsAFailedOperation() throws {
        let result = try latchctl("users", "list")
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("latchctl: cannot reach the database"))
        #expect(result.standardError.filter { $0 == "\n" }.count == 1)
    }
}

@Suite struct CLISecretTests {
    @Test func secretGenerateNeedsNoConfigurationAndPrintsAFreshUsableKey() throws {
        let latchctl = Latchctl(databaseURL: "postgresql://nobody@127.0.0.1:1/nowhere")
        let bare = ["DATABASE_URL": "", "LATCH_SECRET_KEY": ""]
        let first = try latchctl("secret", "generate", environment: bare)
        let second = try latchctl("secret", "generate", "--json", environment: bare)
        #expect(first.status == 0 && second.status == 0, "\(first) \(second)")
        let key = first.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Data(base64Encoded: key)?.count == 32)
        let json = try second.jsonObject()
        #expect((json["secret_key"] as? String).flatMap { Data(base64Encoded: $0) }?.count == 32)
        #expect(json["secret_key"] as? String != key, "every call makes a new one")

        let refused = try latchctl("users", "list", environment: ["LATCH_SECRET_KEY": ""])
        #expect(refused.status == 2 && refused.standardError.contains("LATCH_SECRET_KEY"))
        #expect(try latchctl("users", "list", environment: ["LATCH_SECRET_KEY": key]).standardError
            .contains("LATCH_SECRET_KEY") == false, "the generated key is accepted")
    }
}
