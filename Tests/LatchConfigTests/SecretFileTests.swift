import Foundation
import Testing
@testable import LatchConfig

/// `DATABASE_URL_FILE`, `LATCH_SMTP_URL_FILE` and their flags: secrets read from files instead of argv.
@Suite struct SecretFileTests {
    let databaseURL = "postgresql://latch:s3cret@db.internal:5432/latch"
    let smtpURL = "smtps://mailer:hunter2@smtp.example.com:465"

    /// A fresh directory per test, removed when the test's value goes away.
    final class Directory {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("latch-secrets-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }

        func file(_ name: String, _ contents: String) throws -> String {
            let file = url.appendingPathComponent(name)
            try Data(contents.utf8).write(to: file)
            return file.path
        }
    }

    func load(_ environment: [String: String], arguments: [String] = []) throws -> LatchConfiguration {
        let base = ["LATCH_MAIL_DIR": "/tmp/mail", "LATCH_SECRET_KEY": ConfigurationLoaderTests.secret]
        return try ConfigurationLoader(environment: base.merging(environment) { $1 }, arguments: arguments)
            .load(cores: 2)
    }

    func problem(_ environment: [String: String], arguments: [String] = []) -> ConfigurationError? {
        do {
            _ = try load(environment, arguments: arguments)
            return nil
        } catch let error as ConfigurationError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test(arguments: ["", "\n", "\r\n"])
    func theDatabaseURLComesFromItsFileWithoutOneTrailingNewline(ending: String) throws {
        let directory = try Directory()
        let path = try directory.file("database_url", databaseURL + ending)
        #expect(try load(["DATABASE_URL_FILE": path]).databaseURL == databaseURL)
        #expect(try load([:], arguments: ["--database-url-file", path]).databaseURL == databaseURL)
        #expect(try load([:], arguments: ["--database-url-file=\(path)"]).databaseURL == databaseURL)
    }

    @Test func theSMTPURLComesFromItsFile() throws {
        let directory = try Directory()
        let path = try directory.file("smtp_url", smtpURL + "\n")
        let environment = ["DATABASE_URL": databaseURL]
        #expect(try load(environment.merging(["LATCH_SMTP_URL_FILE": path]) { $1 }).mailTransport == .smtp(URL(string: smtpURL)!))
        #expect(try load(environment, arguments: ["--smtp-url-file", path]).mailTransport == .smtp(URL(string: smtpURL)!))
    }

    /// The value read from the file is validated like the variable itself.
    @Test func aFileValueIsCheckedLikeTheVariable() throws {
        let directory = try Directory()
        let path = try directory.file("database_url", "mysql://nope\n")
        #expect(problem(["DATABASE_URL_FILE": path])?.variable == "DATABASE_URL")
    }

    @Test func aMissingFileNamesTheVariable() throws {
        let directory = try Directory()
        let missing = directory.url.appendingPathComponent("absent").path
        let error = try #require(problem(["DATABASE_URL_FILE": missing]))
        #expect(error.variable == "DATABASE_URL_FILE")
        #expect(error.problem.contains(missing))
        #expect(problem(["DATABASE_URL": databaseURL, "LATCH_SMTP_URL_FILE": missing])?.variable == "LATCH_SMTP_URL_FILE")
        #expect(problem(["DATABASE_URL": databaseURL], arguments: ["--smtp-url-file", missing])?.variable == "LATCH_SMTP_URL_FILE")
    }

    @Test(arguments: ["", "\n", "\r\n", "   \n"])
    func anEmptyFileNamesTheVariable(contents: String) throws {
        let directory = try Directory()
        let path = try directory.file("empty", contents)
        let error = try #require(problem(["DATABASE_URL_FILE": path]))
        #expect(error.variable == "DATABASE_URL_FILE")
        #expect(error.problem.contains("empty"))
    }

    @Test func aDirectoryOrAnUnreadableFileNamesTheVariable() throws {
        let directory = try Directory()
        #expect(problem(["DATABASE_URL_FILE": directory.url.path])?.variable == "DATABASE_URL_FILE")
        let path = try directory.file("locked", databaseURL)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
        if getuid() != 0 {  // root reads it anyway
            #expect(problem(["DATABASE_URL_FILE": path])?.variable == "DATABASE_URL_FILE")
        }
    }

    /// Only one newline is dropped: more lines mean the file is not the value alone.
    @Test(arguments: ["\n\n", "\nsecond line\n", "\r"])
    func moreThanOneLineIsRefused(ending: String) throws {
        let directory = try Directory()
        let path = try directory.file("database_url", databaseURL + ending)
        #expect(problem(["DATABASE_URL_FILE": path])?.variable == "DATABASE_URL_FILE")
    }

    @Test func aHugeFileIsRefusedWithoutReadingItAll() throws {
        let directory = try Directory()
        let path = try directory.file("huge", String(repeating: "x", count: 70_000))
        #expect(problem(["DATABASE_URL_FILE": path])?.variable == "DATABASE_URL_FILE")
        #expect(problem(["DATABASE_URL_FILE": "/dev/zero"])?.variable == "DATABASE_URL_FILE")
    }

    @Test func bothFormsOfOneSettingAreRefused() throws {
        let directory = try Directory()
        let path = try directory.file("database_url", databaseURL)
        let environment = try #require(problem(["DATABASE_URL": databaseURL, "DATABASE_URL_FILE": path]))
        #expect(environment.variable == "DATABASE_URL_FILE")
        #expect(environment.problem.contains("DATABASE_URL"))
        let flags = problem([:], arguments: ["--database-url", databaseURL, "--database-url-file", path])
        #expect(flags?.variable == "DATABASE_URL_FILE")
        let smtp = problem(["DATABASE_URL": databaseURL, "LATCH_SMTP_URL": smtpURL, "LATCH_SMTP_URL_FILE": path])
        #expect(smtp?.variable == "LATCH_SMTP_URL_FILE")
    }

    /// Flags win over the environment for the whole setting, whichever form each uses.
    @Test func aFlagOverridesEitherFormInTheEnvironment() throws {
        let directory = try Directory()
        let path = try directory.file("database_url", databaseURL)
        let other = "postgresql://someone@elsewhere/db"
        #expect(try load(["DATABASE_URL": other], arguments: ["--database-url-file", path]).databaseURL == databaseURL)
        let missing = directory.url.appendingPathComponent("absent").path
        #expect(try load(["DATABASE_URL_FILE": missing], arguments: ["--database-url", other]).databaseURL == other)
    }

    @Test func anEmptyFileVariableCountsAsUnset() throws {
        #expect(try load(["DATABASE_URL": databaseURL, "DATABASE_URL_FILE": ""]).databaseURL == databaseURL)
    }

    @Test func everyFileVariableIsListedRightAfterItsSetting() {
        let names = ConfigurationLoader.variables.map(\.name)
        #expect(ConfigurationLoader.fileVariables == [
            "DATABASE_URL", "LATCH_DATABASE_LISTEN_URL", "LATCH_SMTP_URL", "LATCH_SECRET_KEY",
        ])
        for name in ConfigurationLoader.fileVariables {
            let index = names.firstIndex(of: name)
            #expect(index.map { names[$0 + 1] } == name + "_FILE")
        }
        #expect(ConfigurationLoader.variableName(forFlag: "database-url-file") == "DATABASE_URL_FILE")
        #expect(ConfigurationLoader.variableName(forFlag: "smtp-url-file") == "LATCH_SMTP_URL_FILE")
        for name in names {
            #expect(ConfigurationLoader.variableName(forFlag: ConfigurationLoader.flagName(forVariable: name)) == name)
        }
    }

    @Test func theHelpNamesEveryFileVariableAndItsFlag() {
        let help = ConfigurationLoader.secretFilesHelp
        for name in ConfigurationLoader.fileVariables {
            #expect(help.contains(name + "_FILE"))
        }
        #expect(help.contains("--database-url-file") && help.contains("--smtp-url-file"))
    }
}
