import CCurl
import CurlSupport
import Foundation

/// A provider's answer: status, headers (names lowercased, the last value of a repeated one) and body.
struct HTTPFetchResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data
}

/// Why a call to a provider got no answer. Never holds a request body (it carries codes and tokens).
enum HTTPFetchError: Error, Hashable, Sendable {
    /// No answer: DNS, connection, TLS, timeout; curl's own text.
    case transport(String)
    /// The answer's body was longer than the limit.
    case tooLarge
}

/// Blocking HTTP(S) calls to identity providers over libcurl: a GET of a JWKS and form POSTs to token endpoints.
/// Each call has its own easy handle, so any number run on any threads at once. Redirects are not followed (a
/// provider's endpoints answer where they are configured) and only http and https are spoken: tests serve on
/// loopback over http, production is https.
struct HTTPFetch: Sendable {
    var timeoutSeconds = 10
    var maxBodyBytes = 256 * 1024

    func get(_ url: URL) throws(HTTPFetchError) -> HTTPFetchResponse {
        try fetch(url, form: nil)
    }

    /// POSTs `fields` as `application/x-www-form-urlencoded`, in order.
    func postForm(_ url: URL, fields: [(String, String)]) throws(HTTPFetchError) -> HTTPFetchResponse {
        try fetch(url, form: FormEncoding.encode(fields))
    }

    /// A GET, or a POST of `form`, on a handle of its own.
    private func fetch(_ url: URL, form: String?) throws(HTTPFetchError) -> HTTPFetchResponse {
        let answer: CurlResponse
        do throws(CurlError) {
            let transfer = try CurlEasy()
            try transfer.set(CURLOPT_URL, url.absoluteString)
            try transfer.set(CURLOPT_PROTOCOLS_STR, "http,https")
            try transfer.set(CURLOPT_FOLLOWLOCATION, 0)
            try transfer.set(CURLOPT_TIMEOUT, timeoutSeconds)
            try transfer.set(CURLOPT_USERAGENT, "Latch")
            try transfer.captureResponse(maxBodyBytes: maxBodyBytes)
            if let form { try transfer.setPostBody(Data(form.utf8)) }
            answer = try transfer.perform()
        } catch {
            throw .transport(error.description)
        }
        if answer.truncated { throw .tooLarge }
        return HTTPFetchResponse(status: answer.status, headers: answer.headers, body: answer.body)
    }
}

/// `application/x-www-form-urlencoded` with every byte outside RFC 3986's unreserved set percent-encoded (a space
/// too, as `%20`): a client secret, a code or a token can hold nothing that changes the form's shape.
enum FormEncoding {
    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                output += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return output
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
