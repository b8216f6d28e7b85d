import Foundation

/// One MIME entity of a received message (RFC 2045/2046): its header fields, and either a decoded body or, for
/// `multipart/*`, its parts. Parsed leniently, as a mail client would, so the tests see what a reader sees.
struct MIMEEntity: Sendable {
    /// Header fields in order, unfolded (continuation lines joined), names as sent.
    var headers: [(name: String, value: String)]
    /// The body after transfer decoding (quoted-printable or base64); the raw text for multiparts.
    var body: String
    /// The parts of a multipart entity, in order; empty otherwise.
    var parts: [MIMEEntity]

    init(raw: String) {
        let (head, body) = Self.split(Self.normalizingLineEnds(raw))
        headers = Self.parseHeaders(head)
        parts = []
        self.body = body
        if mediaType.hasPrefix("multipart/"), let boundary = parameter("boundary", of: "Content-Type") {
            parts = Self.splitParts(body, boundary: boundary).map(MIMEEntity.init(raw:))
        } else {
            self.body = Self.decodeBody(body, encoding: header("Content-Transfer-Encoding"))
        }
    }

    /// The first value of header `name`, case-insensitive.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of header `name`.
    func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// `type/subtype` of Content-Type, lowercased; `text/plain` when absent (RFC 2045 default).
    var mediaType: String {
        guard let value = header("Content-Type") else { return "text/plain" }
        return value.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    /// A parameter of a structured header, e.g. `boundary` of Content-Type, quotes removed.
    func parameter(_ name: String, of field: String) -> String? {
        guard let value = header(field) else { return nil }
        for piece in value.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == name.lowercased() else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }

    /// This entity and every entity nested in it, depth first.
    var allEntities: [MIMEEntity] { [self] + parts.flatMap(\.allEntities) }

    /// CRLF as LF, at the scalar level: Swift treats "\r\n" as one Character, which would never equal "\n".
    private static func normalizingLineEnds(_ raw: String) -> String {
        var scalars = String.UnicodeScalarView()
        var previousCR = false
        for scalar in raw.unicodeScalars {
            if previousCR && scalar != "\n" { scalars.append("\r") }
            previousCR = scalar == "\r"
            if !previousCR { scalars.append(scalar) }
        }
        if previousCR { scalars.append("\r") }
        return String(scalars)
    }

    /// Head and body, split at the first empty line.
    private static func split(_ raw: String) -> (String, String) {
        guard let range = raw.range(of: "\n\n") else { return (raw, "") }
        return (String(raw[..<range.lowerBound]), String(raw[range.upperBound...]))
    }

    private static func parseHeaders(_ head: String) -> [(name: String, value: String)] {
        var unfolded: [String] = []
        for line in head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let first = line.first, first == " " || first == "\t", !unfolded.isEmpty {
                unfolded[unfolded.count - 1] += line
            } else if !line.isEmpty {
                unfolded.append(line)
            }
        }
        return unfolded.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }

    /// The texts between `--boundary` delimiter lines, up to the closing `--boundary--`.
    private static func splitParts(_ body: String, boundary: String) -> [String] {
        var parts: [String] = []
        var current: [String]?
        for line in body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "--\(boundary)--" {
                if let current { parts.append(current.joined(separator: "\n")) }
                return parts
            }
            if trimmed == "--\(boundary)" {
                if let current { parts.append(current.joined(separator: "\n")) }
                current = []
                continue
            }
            current?.append(line)
        }
        if let current { parts.append(current.joined(separator: "\n")) }
        return parts
    }

    private static func decodeBody(_ body: String, encoding: String?) -> String {
        switch encoding?.lowercased() {
        case "quoted-printable": QuotedPrintableDecoder.decodeText(body)
        case "base64":
            Data(base64Encoded: body.filter { !$0.isWhitespace }).map { String(decoding: $0, as: UTF8.self) } ?? body
        default: body
        }
    }
}
