import Foundation

extension ConfigurationLoader {
    /// Variables that may hold a password, and so may also be given as a file: `DATABASE_URL_FILE=/run/secrets/db`
    /// (or `--database-url-file`) reads `DATABASE_URL` from that file.
    ///
    /// A flag is readable by every user of the machine (`ps`, `/proc/PID/cmdline`) and an environment variable by
    /// anyone who can inspect the container; a file can be readable by the service alone (a Docker or Kubernetes
    /// secret). A new secret setting becomes file-capable by being listed here: the `_FILE` variable, its flag,
    /// its row in `variables` (so in `--help` and the README) and its checks all follow from this list.
    public static let fileVariables: [String] = [
        "DATABASE_URL", "LATCH_DATABASE_LISTEN_URL", "LATCH_SMTP_URL", "LATCH_SECRET_KEY",
    ]

    /// `DATABASE_URL` -> `DATABASE_URL_FILE`.
    public static func fileVariable(for name: String) -> String { name + "_FILE" }

    /// Longer files are refused rather than read: a secret is a line, and a path such as `/dev/zero` must not hang
    /// or exhaust memory at start.
    static let maximumSecretFileSize = 64 * 1024

    /// For `--help` of latchd and latchctl.
    public static var secretFilesHelp: String {
        let forms = fileVariables.map { name in
            let file = fileVariable(for: name)
            return "  \(file.padding(toLength: 32, withPad: " ", startingAt: 0)) --\(flagName(forVariable: file)) PATH\n"
        }.joined()
        return """
            Settings that hold a password can be read from a file instead, so that the password shows neither in
            argv (ps shows it to every user) nor in the environment:
            \(forms)\
            The file holds the value alone (one trailing newline is dropped). A missing, unreadable or empty file
            is a configuration error, and so is giving both a setting and its _FILE form.
            """
    }

    /// The `variables` rows with a `_FILE` row after each file-capable variable.
    static func withFileVariables(
        _ rows: [(name: String, help: String, defaultValue: String?)]
    ) -> [(name: String, help: String, defaultValue: String?)] {
        rows.flatMap { row in
            guard fileVariables.contains(row.name) else { return [row] }
            let help = "file holding \(row.name), kept out of argv and the environment"
            return [row, (fileVariable(for: row.name), help, nil)]
        }
    }

    /// A flag wins over the environment for its whole setting: `--database-url-file` also overrides an inherited
    /// `DATABASE_URL`, and `--database-url` an inherited `DATABASE_URL_FILE`.
    static func dropEnvironmentCounterparts(of flags: Set<String>, in values: inout [String: String]) {
        for name in fileVariables {
            let file = fileVariable(for: name)
            if flags.contains(name), !flags.contains(file) { values[file] = nil }
            if flags.contains(file), !flags.contains(name) { values[name] = nil }
        }
    }

    /// `values` with every set `X_FILE` replaced by `X`, read from that file.
    /// - Throws: naming `X_FILE` when the file is missing, unreadable, empty or too long, or when `X` is set too
    ///   (which one was meant is a guess the operator should make).
    static func resolvingFiles(_ values: [String: String]) throws(ConfigurationError) -> [String: String] {
        var resolved = values
        for name in fileVariables {
            let file = fileVariable(for: name)
            resolved[file] = nil
            guard let path = nonEmpty(values[file]) else { continue }
            guard nonEmpty(values[name]) == nil else {
                throw ConfigurationError(variable: file, problem: "is set together with \(name); give only one of them")
            }
            resolved[name] = try readSecret(at: path, variable: file)
        }
        return resolved
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    /// The file's text without one trailing newline (`\n` or `\r\n`, as editors and `echo` leave one).
    static func readSecret(at path: String, variable: String) throws(ConfigurationError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigurationError(variable: variable, problem: "names a file that does not exist: \(path)")
        }
        guard !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path),
              let data = try? handle.read(upToCount: maximumSecretFileSize + 1)
        else {
            throw ConfigurationError(variable: variable, problem: "names a file that cannot be read: \(path)")
        }
        try? handle.close()
        guard data.count <= maximumSecretFileSize else {
            throw ConfigurationError(variable: variable, problem: "names a file over 64 KiB: \(path)")
        }
        var bytes = [UInt8](data)
        if bytes.last == 0x0A {
            bytes.removeLast()
            if bytes.last == 0x0D { bytes.removeLast() }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationError(variable: variable, problem: "names a file that is not UTF-8 text: \(path)")
        }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ConfigurationError(variable: variable, problem: "names an empty file: \(path)")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\t" }) else {
            throw ConfigurationError(
                variable: variable, problem: "names a file with more than one line or control characters: \(path)")
        }
        return text
    }
}
