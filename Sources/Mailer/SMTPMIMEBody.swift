import CCurl
import CurlSupport
import Foundation

/// The mail's body as curl's MIME API builds it: multipart/alternative of a text and an HTML part, both UTF-8 and
/// quoted-printable.
///
/// The parts go straight into curl's root MIME tree; curl names the root `multipart/mixed` unless the headers say
/// otherwise, so the caller passes `Content-Type: multipart/alternative` (curl adds the boundary). A
/// multipart/mixed top level would tell mail clients and filters the mail has attachments.
enum SMTPMIMEBody {
    static func attach(text: String, html: String, to request: CurlEasy) throws(CurlError) {
        let root = try request.makeMIME()
        try addTextPart(to: root, body: text, type: "text/plain; charset=utf-8", of: request)
        try addTextPart(to: root, body: html, type: "text/html; charset=utf-8", of: request)
        try request.set(CURLOPT_MIMEPOST, pointer: UnsafeMutableRawPointer(root))
    }

    private static func addTextPart(to tree: OpaquePointer, body: String, type: String,
                                    of request: CurlEasy) throws(CurlError) {
        guard let part = curl_mime_addpart(tree) else { throw .setup("curl_mime_addpart failed") }
        // curl's quoted-printable encoder keeps only CRLF as a hard line break (a bare LF would become =0A).
        let canonical = body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        // withCString never hands out NULL (which would mean "no data" to curl), even for an empty body.
        try request.check(canonical.withCString { curl_mime_data(part, $0, canonical.utf8.count) }, "curl_mime_data")
        try request.check(curl_mime_type(part, type), "curl_mime_type")
        try request.check(curl_mime_encoder(part, "quoted-printable"), "curl_mime_encoder")
    }
}
