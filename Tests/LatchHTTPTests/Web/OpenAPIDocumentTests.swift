import AuthCore
import Foundation
import HTTPServer
import TestKit
import Testing
@testable import LatchHTTP

/// `openapi.yaml` describes exactly the routes latchd registers, and only error codes the server can send.
/// Read with a small line-based reader (Foundation has no YAML parser): the document keeps block style for keys.
@Suite struct OpenAPIDocumentTests {
    static let documentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("openapi.yaml")

    struct Route: Hashable, CustomStringConvertible {
        let method: String
        let path: String
        var description: String { "\(method) \(path)" }
    }

    static func document() throws -> String {
        try String(contentsOf: documentURL, encoding: .utf8)
    }

    /// Every (method, path) under `paths:`: path keys indented 2 spaces, operation keys 4.
    static func documentedRoutes(_ text: String) -> Set<Route> {
        let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        var routes = Set<Route>()
        var inPaths = false
        var currentPath: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" "), !line.hasPrefix("#"), !line.isEmpty {
                inPaths = line == "paths:"
                continue
            }
            guard inPaths, line.hasSuffix(":") else { continue }
            let indent = line.prefix { $0 == " " }.count
            let key = line.dropFirst(indent).dropLast().trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            if indent == 2 {
                // OpenAPI's `{id}` is the router's `:id`.
                currentPath = key.replacingOccurrences(of: #"\{([a-z_]+)\}"#, with: ":$1", options: .regularExpression)
            } else if indent == 4, methods.contains(key), let path = currentPath {
                routes.insert(Route(method: key.uppercased(), path: path))
            }
        }
        return routes
    }

    /// Every code in an `enum: [...]` of an error response (the `code` property's).
    static func documentedErrorCodes(_ text: String) -> Set<String> {
        var codes = Set<String>()
        let lines = text.split(separator: "\n").map(String.init)
        for (index, line) in lines.enumerated() where index > 0 && lines[index - 1].hasSuffix("code:") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("enum: ["), trimmed.hasSuffix("]") else { continue }
            let list = trimmed.dropFirst("enum: [".count).dropLast()
            codes.formUnion(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        return codes
    }

    /// What latchd's API listener serves: the API and the web routes on one router, as `LatchApplication` builds it,
    /// with Sign in with Apple configured (its routes exist only then; the document describes them); and the admin
    /// API of the private listener, the document's `admin` section.
    static var registeredRoutes: Set<Route> {
        get throws {
            let web = try harness()
            return Set((web.router.routes + web.adminRouter.routes).map { Route(method: $0.method.rawValue, path: $0.path) })
        }
    }

    static func harness() throws -> WebHarness {
        try WebHarness(identityProviders: ["apple": .apple(audiences: ["com.example.app"])])
    }

    @Test func everyRegisteredRouteIsDocumented() throws {
        let documented = Self.documentedRoutes(try Self.document())
        let missing = try Self.registeredRoutes.subtracting(documented)
        #expect(missing.isEmpty, "not in openapi.yaml: \(missing.sorted { $0.description < $1.description })")
    }

    @Test func everyDocumentedRouteIsRegistered() throws {
        let documented = Self.documentedRoutes(try Self.document())
        #expect(documented.count >= 17)
        // The API document describes the API's port; /metrics is on the metrics listener, not here.
        #expect(!documented.contains { $0.path == "/metrics" })
        let extra = documented.subtracting(try Self.registeredRoutes)
        #expect(extra.isEmpty, "not registered: \(extra.sorted { $0.description < $1.description })")
    }

    @Test func theRegisteredRoutesAreTheOnesTheRouterAnswers() throws {
        let web = try Self.harness()
        for route in try Self.registeredRoutes {
            let response = web.send(HTTPMethod(rawValue: route.method), route.path,
                                    admin: route.path.hasPrefix("/admin/"))
            #expect(response.status != .notFound && response.status != .methodNotAllowed, "\(route)")
        }
    }

    @Test func documentedErrorCodesAreExactlyThoseTheServerSends() throws {
        let documented = Self.documentedErrorCodes(try Self.document())
        let authErrors: [AuthError] = [
            .invalidEmail, .weakPassword(.passwordTooShort), .invalidCredentials, .emailNotConfirmed, .userDisabled,
            .invalidToken, .tokenExpired, .tokenUsed, .tokenSuperseded, .alreadyConfirmed, .invalidCode, .rateLimited(retryAfter: 1),
            .invalidSession, .sessionExpired, .refreshTokenReused, .invalidAccessToken, .emailTaken, .emailUnchanged, .sessionNotFound,
            .reauthenticationRequired(maxAge: 600), .invalidMFATicket, .invalidMFACode, .mfaRequired, .mfaNotEnabled,
            .factorNotFound, .invalidPasskeyChallenge, .passkeyRejected, .passkeyNotFound, .lastSignInMethod,
            .invalidNonce, .invalidIDToken, .providerEmailUnverified, .providerUnavailable, .identityNotFound,
            .unsupportedLocale,
        ]
        let apiErrors: [any HTTPResponseError] = [
            APIError.invalidField("f"), APIError.missingToken, APIError.notReady, APIError.serviceUnavailable,
            JSONBodyError.unsupportedMediaType, JSONBodyError.malformed,
            AdminAPIKeyRefusal.invalidKey, AdminAPIKeyRefusal.insufficientScope(.usersRead),
            AdminQueryError.invalidCursor, AdminQueryError.invalidParameter("limit"),
            AdminOperations.Failure.unknownUserID(UserID()), AdminOperations.Failure.unknownMail(id: 1),
            AdminOperations.Failure.mailUnrecoverable(id: 1), AdminOperations.Failure.mailNotWaiting(id: 1),
        ]
        let mapped = Set((authErrors.map { $0 as any HTTPResponseError } + apiErrors).map(\.code))
        // Answered by HTTPServer itself: the body and header limits, a full hashing pool, a request during the
        // stop, ambiguous framing.
        let server: Set<String> = [
            HTTPError.payloadTooLarge(maxBytes: 1).code, HTTPError.overloaded.code, HTTPError.shuttingDown.code,
            HTTPError.uriTooLong(maxBytes: 1).code, HTTPError.headerFieldsTooLarge(maxBytes: 1).code,
            HTTPError.badRequest("framing").code,
        ]
        #expect(documented == mapped.union(server))
    }

    /// `key: value` of the component schema `name` (its own keys, indented 6), YAML single quotes undone.
    static func schemaKeyword(_ name: String, _ keyword: String) throws -> String {
        let lines = try document().split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "    \(name):"[...]), "no schema \(name)")
        for line in lines[(start + 1)...] {
            guard line.hasPrefix("      ") else { break }
            guard line.hasPrefix("      \(keyword): ") else { continue }
            var value = String(line.dropFirst("      \(keyword): ".count))
            if value.hasPrefix("'"), value.hasSuffix("'") {
                value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
            }
            return value
        }
        throw DocumentError.missing("\(name).\(keyword)")
    }

    enum DocumentError: Error {
        case missing(String)
    }

    /// Whether `pattern` matches all of `text`, as a JSON Schema pattern does (ECMA-262 `$` is the end of the
    /// text only, so the match must span it).
    static func matches(_ pattern: NSRegularExpression, _ text: String) -> Bool {
        let whole = NSRange(text.startIndex..., in: text)
        return pattern.firstMatch(in: text, range: whole)?.range == whole
    }

    /// Candidates for a rule over `alphabet`: every short string near the rule's edges, from a fixed seed.
    static func candidates(_ alphabet: [String], count: Int, maxLength: Int, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let length = Int(random.next() % UInt64(maxLength + 1))
            return (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
        }
    }

    /// The `EmailAddress` schema accepts exactly what AuthCore's `EmailAddress` accepts.
    @Test func theEmailSchemaIsTheServersRule() throws {
        let pattern = try NSRegularExpression(pattern: Self.schemaKeyword("EmailAddress", "pattern"))
        let maxLength = try #require(Int(Self.schemaKeyword("EmailAddress", "maxLength")))
        #expect(maxLength == EmailAddress.maximumLength)
        let documented = { (text: String) in text.unicodeScalars.count <= maxLength && Self.matches(pattern, text) }
        let long = String(repeating: "l", count: 63)
        var texts = [
            "a@b.co", "A.B@Example.COM", "a..b@c.de", ".a@b.co", "a.@b.co", "a@-b.co", "a@b-.co", "a@b", "a@b.co\n",
            " a@b.co", "jörg@b.co", "a@b.c_o", "\"a\"@b.co", String(repeating: "x", count: 64) + "@b.co",
            String(repeating: "x", count: 65) + "@b.co", "a@\(long).co", "a@\(long)l.co",
            String(repeating: "x", count: 60) + "@" + Array(repeating: long, count: 3).joined(separator: ".") + ".abcd",
        ]
        let alphabet = ["a", "Z", "0", "-", ".", "@", "+", "_", "'", "`", "~", "!", " ", "\"", ",", "é", "\u{0}",
                        "\n", "\u{200B}", "ab", "c.d", "x-y"]
        texts += Self.candidates(alphabet, count: 20_000, maxLength: 12, seed: 1)
        // One @ between a local part and a domain of two labels, each near its own rule's edges.
        let locals = Self.candidates(["a", "Z", "0", ".", "-", "+", "'", "é", " "], count: 20_000, maxLength: 5, seed: 2)
        let labels = Self.candidates(["b", "C", "0", "-", "_"], count: 40_000, maxLength: 4, seed: 3)
        texts += locals.indices.map { locals[$0] + "@" + labels[2 * $0] + "." + labels[2 * $0 + 1] }
        var accepted = 0
        for text in texts {
            let server = (try? EmailAddress(text)) != nil
            #expect(server == documented(text), "\(text.debugDescription): server \(server)")
            if server { accepted += 1 }
        }
        #expect(accepted > 400 && texts.count - accepted > 400, "accepted \(accepted) of \(texts.count)")
    }

    /// Tokens (`TokenString`), codes (`OneTimeCode`) and passwords as the server reads them.
    @Test func theTokenCodeAndPasswordSchemasAreTheServersRules() throws {
        let token = try NSRegularExpression(pattern: Self.schemaKeyword("TokenString", "pattern"))
        let tokenTexts = ["", String(repeating: "A", count: 43), String(repeating: "A", count: 42),
                          String(repeating: "-", count: 44), String(repeating: "_", count: 43),
                          String(repeating: "+", count: 43), String(repeating: "a", count: 42) + "="]
            + Self.candidates(["A", "z", "9", "-", "_", "+", "/", "=", " ", "é"], count: 2_000, maxLength: 45, seed: 4)
            + Self.candidates(["A", "_"], count: 200, maxLength: 44, seed: 5).filter { $0.count >= 42 }
        for text in tokenTexts {
            #expect(TokenText.isToken(text) == Self.matches(token, text), "\(text.debugDescription)")
        }

        let code = try NSRegularExpression(pattern: Self.schemaKeyword("OneTimeCode", "pattern"))
        let codeLength = try #require(Int(Self.schemaKeyword("OneTimeCode", "maxLength")))
        #expect(codeLength == FieldLimits.codeBytes)
        let codeTexts = ["12345678", "1234 5678", "1234-5678", " 1 2 3 4 5 6 7 8 ", "1234\t5678", "1234567",
                         "123456789", "１２３４５６７８", "1234\u{00A0}5678"]
            + Self.candidates(["1", "0", " ", "-", "a", "\t", "12345678", "1234"], count: 5_000, maxLength: 10, seed: 6)
        for text in codeTexts where text.utf8.count <= codeLength {
            #expect(OneTimeCode.isWellFormed(OneTimeCode.normalized(text)) == Self.matches(code, text),
                    "\(text.debugDescription)")
        }

        #expect(try Self.schemaKeyword("NewPassword", "minLength") == String(PasswordPolicy.minimumLength))
        #expect(try Self.schemaKeyword("NewPassword", "maxLength") == String(PasswordPolicy.maximumLength))
        #expect(try Self.schemaKeyword("Password", "maxLength") == String(FieldLimits.passwordCharacters))
        let noNUL = try NSRegularExpression(pattern: Self.schemaKeyword("Password", "pattern"))
        #expect(try Self.schemaKeyword("NewPassword", "pattern") == noNUL.pattern)
        #expect(Self.matches(noNUL, "any 🔑 thing\n") && !Self.matches(noNUL, "nul\u{0}inside"))
    }

    /// `key: value` of the property `property` of the component schema `name` (indented 8, its keys 10).
    static func propertyKeyword(_ name: String, _ property: String, _ keyword: String) throws -> String {
        let lines = try document().split(separator: "\n", omittingEmptySubsequences: false)
        let schema = try #require(lines.firstIndex(of: "    \(name):"[...]), "no schema \(name)")
        let start = try #require(lines[schema...].firstIndex(of: "        \(property):"[...]), "no \(name).\(property)")
        for line in lines[(start + 1)...] {
            guard line.hasPrefix("          ") else { break }
            guard line.hasPrefix("          \(keyword): ") else { continue }
            return String(line.dropFirst("          \(keyword): ".count))
        }
        throw DocumentError.missing("\(name).\(property).\(keyword)")
    }

    /// The provider sign-in's limits are the server's: characters as `maxLength` counts them, and the byte limits
    /// of the id_token and the authorization code under ASCII-only patterns, where bytes are characters.
    @Test func theProviderSignInSchemaIsTheServersLimits() throws {
        #expect(try Self.propertyKeyword("AppleSignIn", "id_token", "maxLength") == String(FieldLimits.idTokenBytes))
        #expect(try Self.propertyKeyword("AppleSignIn", "nonce_id", "maxLength") == String(FieldLimits.nonceCharacters))
        #expect(try Self.propertyKeyword("AppleSignIn", "nonce", "maxLength") == String(FieldLimits.nonceCharacters))
        #expect(try Self.propertyKeyword("AppleSignIn", "authorization_code", "maxLength")
            == String(FieldLimits.authorizationCodeBytes))
        #expect(try Self.schemaKeyword("PersonName", "maxLength") == String(FieldLimits.personNameCharacters))
        for property in ["id_token", "authorization_code"] {
            var pattern = try Self.propertyKeyword("AppleSignIn", property, "pattern")
            pattern = String(pattern.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
            let regex = try NSRegularExpression(pattern: pattern)
            let texts = ["a.b.c", "é.b.c", "a.b.\u{0}", "ab", "~!", "a b", "🔑"]
            for text in texts where Self.matches(regex, text) {
                #expect(text.utf8.count == text.unicodeScalars.count && !text.utf8.contains(0), "\(property) \(text)")
            }
        }
    }

    /// The `Locale` schema accepts exactly the tags `LanguageNegotiation` reads as well-formed, within the body limit.
    @Test func theLocaleSchemaIsTheServersRule() throws {
        let pattern = try NSRegularExpression(pattern: Self.schemaKeyword("Locale", "pattern"))
        let maxLength = try #require(Int(Self.schemaKeyword("Locale", "maxLength")))
        #expect(maxLength == FieldLimits.localeCharacters)
        let texts = ["en", "de-CH", "zh-Hant-x-a", "abcdefgh-12345678", "abcdefghi", "en-123456789", "en-", "-en",
                     "en--US", "1en", "en_US", "*", "en-*", "", "é", "en-\u{0}", String(repeating: "a-", count: 17) + "a",
                     String(repeating: "a-", count: 17) + "ab"]
            + Self.candidates(["a", "Z", "0", "-", "_", "*", " ", "é", "abcd", "1234"], count: 20_000, maxLength: 10, seed: 7)
        var accepted = 0
        for text in texts {
            let server = LanguageNegotiation.isWellFormed(text)
            let documented = text.unicodeScalars.count <= maxLength && Self.matches(pattern, text)
            #expect(server == documented, "\(text.debugDescription): server \(server)")
            if server { accepted += 1 }
        }
        #expect(accepted > 400 && texts.count - accepted > 400, "accepted \(accepted) of \(texts.count)")
    }

    @Test func theDocumentDeclaresVersionAndBearerScheme() throws {
        let text = try Self.document()
        #expect(text.contains("\nopenapi: 3.1.0\n"))
        #expect(text.contains("    bearer:\n      type: http\n      scheme: bearer\n"))
    }
}
