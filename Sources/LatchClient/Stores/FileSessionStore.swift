import Foundation

/// Keeps the session (`session.json`), the device token (`device-token`) and the pending sign-in by mail
/// (`pending-email-signin.json`) in a directory of their own, for Linux and command-line tools. The directory is
/// made owner-only (0700) and each file is written owner-only (0600) to a temporary name and renamed over the old
/// one, so a reader sees the old file or the new, never half.
public struct FileSessionStore: SessionStore {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public func loadSession() throws -> Session? {
        try read("session.json").map { try APIJSON.decoder.decode(Session.self, from: $0) }
    }

    public func saveSession(_ session: Session) throws {
        try replace("session.json", with: APIJSON.encoder.encode(session))
    }

    public func clearSession() throws {
        try remove("session.json")
    }

    public func loadDeviceToken() throws -> String? {
        try read("device-token").map { String(decoding: $0, as: UTF8.self) }
    }

    public func saveDeviceToken(_ token: String) throws {
        try replace("device-token", with: Data(token.utf8))
    }

    public func loadPendingEmailSignIn() throws -> PendingEmailSignIn? {
        try read("pending-email-signin.json").map { try APIJSON.decoder.decode(PendingEmailSignIn.self, from: $0) }
    }

    public func savePendingEmailSignIn(_ attempt: PendingEmailSignIn) throws {
        try replace("pending-email-signin.json", with: APIJSON.encoder.encode(attempt))
    }

    public func clearPendingEmailSignIn() throws {
        try remove("pending-email-signin.json")
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func read(_ name: String) throws -> Data? {
        guard FileManager.default.fileExists(atPath: path(name)) else { return nil }
        return try Data(contentsOf: URL(fileURLWithPath: path(name)))
    }

    private func remove(_ name: String) throws {
        guard FileManager.default.fileExists(atPath: path(name)) else { return }
        try FileManager.default.removeItem(atPath: path(name))
    }

    private func replace(_ name: String, with data: Data) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = path(".\(name).\(UUID().uuidString)")
        // open(2) creates it owner-only from the start; FileManager would create it with the umask, then chmod.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw POSIXError.current }
        let failure = Self.writeAll(data, to: descriptor) ?? (fsync(descriptor) == 0 ? nil : POSIXError.current)
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, path(name)) == 0 else {
            let error = POSIXError.current
            unlink(temporary)
            throw error
        }
    }

    /// Writes every byte (write(2) may write fewer than asked); the error if one write fails.
    private static func writeAll(_ data: Data, to descriptor: Int32) -> POSIXError? {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> POSIXError? in
            guard let base = bytes.baseAddress else { return nil }
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, base + offset, bytes.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return POSIXError.current }
                offset += count
            }
            return nil
        }
    }
}

extension POSIXError {
    /// The error `errno` names now.
    static var current: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
