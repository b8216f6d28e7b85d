import CCurl
import Foundation

/// One SMTP transfer: owns an easy handle and everything attached to it (MIME tree, header and recipient lists,
/// error buffer) and frees them together. Lives for a single send on a single thread: easy handles must not be
/// shared across threads.
final class CurlSMTPRequest {
    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var mime: OpaquePointer?
    private var lists: [UnsafeMutablePointer<curl_slist>] = []

    init() throws(MailError) {
        try CurlRuntime.ready()
        guard let handle = curl_easy_init() else { throw .transportSetup(reason: "curl_easy_init returned NULL") }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
    }

    deinit {
        // Order from curl's smtp-mime example: handle first, then what it pointed to.
        curl_easy_cleanup(handle)
        lists.forEach { curl_slist_free_all($0) }
        curl_mime_free(mime)
        errorBuffer.deallocate()
    }

    func set(_ option: CURLoption, _ value: Int) throws(MailError) {
        try check(latch_curl_setopt_long(handle, option, value), "setting option \(option.rawValue)")
    }

    func set(_ option: CURLoption, _ value: String) throws(MailError) {
        try check(latch_curl_setopt_string(handle, option, value), "setting option \(option.rawValue)")
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(MailError) {
        try check(latch_curl_setopt_pointer(handle, option, pointer), "setting option \(option.rawValue)")
    }

    /// Builds a curl string list, keeps it alive until deinit and passes it as `option`.
    func set(_ option: CURLoption, list entries: [String]) throws(MailError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for entry in entries {
            guard let longer = curl_slist_append(list, entry) else {
                if let list { curl_slist_free_all(list) }
                throw .transportSetup(reason: "curl_slist_append failed")
            }
            list = longer
        }
        guard let list else { throw .transportSetup(reason: "empty list for option \(option.rawValue)") }
        lists.append(list)
        try set(option, pointer: UnsafeMutableRawPointer(list))
    }

    /// multipart/alternative of a text and an HTML part, both UTF-8 and quoted-printable, as the mail body.
    ///
    /// The parts go straight into curl's root MIME tree; curl names the root `multipart/mixed` unless the headers
    /// say otherwise, so the caller passes `Content-Type: multipart/alternative` (curl adds the boundary). A
    /// multipart/mixed top level would tell mail clients and filters the mail has attachments.
    func setBody(text: String, html: String) throws(MailError) {
        guard let root = curl_mime_init(handle) else { throw .transportSetup(reason: "curl_mime_init failed") }
        mime = root
        try addTextPart(to: root, body: text, type: "text/plain; charset=utf-8")
        try addTextPart(to: root, body: html, type: "text/html; charset=utf-8")
        try set(CURLOPT_MIMEPOST, pointer: UnsafeMutableRawPointer(root))
    }

    private func addTextPart(to tree: OpaquePointer, body: String, type: String) throws(MailError) {
        guard let part = curl_mime_addpart(tree) else { throw .transportSetup(reason: "curl_mime_addpart failed") }
        // curl's quoted-printable encoder keeps only CRLF as a hard line break (a bare LF would become =0A).
        let canonical = body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        // withCString never hands out NULL (which would mean "no data" to curl), even for an empty body.
        try check(canonical.withCString { curl_mime_data(part, $0, canonical.utf8.count) }, "curl_mime_data")
        try check(curl_mime_type(part, type), "curl_mime_type")
        try check(curl_mime_encoder(part, "quoted-printable"), "curl_mime_encoder")
    }

    /// Runs the transfer (blocking) and maps failure to `MailError.smtp` with curl's own text.
    func perform() throws(MailError) {
        let code = curl_easy_perform(handle)
        guard code == CURLE_OK else { throw failure(code, "SMTP transfer") }
    }

    private func check(_ code: CURLcode, _ step: String) throws(MailError) {
        guard code == CURLE_OK else { throw failure(code, step) }
    }

    private func failure(_ code: CURLcode, _ step: String) -> MailError {
        var reply = 0
        _ = latch_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &reply)
        let detail = String(cString: errorBuffer)
        let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        return .smtp(curlCode: Int(code.rawValue), message: "\(step): \(text)", responseCode: reply)
    }
}
