import Foundation

/// The options latchd handed out (`POST /v1/passkeys/{registration,authentication}/options`): the challenge id to
/// send back, and the `publicKey` member as JSON text, given to the authenticator unchanged.
struct PasskeyOptions: Sendable, CustomStringConvertible {
    let challengeID: String
    /// The `publicKey` object, re-serialized.
    let publicKey: String
    /// `publicKey.challenge` (base64url).
    let challenge: String
    /// `publicKey.rp.id` (registration) or `publicKey.rpId` (authentication).
    let rpID: String?
    /// `publicKey.user.id` (registration only).
    let userID: String?

    var description: String { "challenge_id \(challengeID) publicKey \(publicKey)" }

    /// Parses an options answer; nil when it is not one.
    init?(json: [UInt8]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
              let challengeID = object["challenge_id"] as? String,
              let publicKey = object["publicKey"] as? [String: Any],
              let challenge = publicKey["challenge"] as? String,
              let text = try? JSONSerialization.data(withJSONObject: publicKey, options: [.sortedKeys])
        else { return nil }
        self.challengeID = challengeID
        self.publicKey = String(decoding: text, as: UTF8.self)
        self.challenge = challenge
        rpID = (publicKey["rp"] as? [String: Any])?["id"] as? String ?? publicKey["rpId"] as? String
        userID = (publicKey["user"] as? [String: Any])?["id"] as? String
    }

    /// The `publicKey` object.
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(publicKey.utf8)) as? [String: Any]) ?? [:]
    }
}

/// Options of one ceremony dressed as another's, so that the authenticator answers a challenge latchd handed out
/// for another purpose correctly in every other respect (only the purpose is wrong).
extension PasskeyOptions {
    /// Sign-in options (`rpId`) with this challenge.
    func dressedAsSignIn(rpID: String) throws -> PasskeyOptions {
        try Self.with(challengeID: challengeID, publicKey: ["challenge": challenge, "rpId": rpID])
    }

    /// Registration options (RP and user of `template`) with this challenge.
    func dressedAsRegistration(like template: PasskeyOptions) throws -> PasskeyOptions {
        var publicKey = template.object
        publicKey["challenge"] = challenge
        return try Self.with(challengeID: challengeID, publicKey: publicKey)
    }

    private static func with(challengeID: String, publicKey: [String: Any]) throws -> PasskeyOptions {
        let body = try SoftwareAuthenticator.text(["challenge_id": challengeID, "publicKey": publicKey])
        guard let options = PasskeyOptions(json: Array(body.utf8)) else {
            throw VenvScript.Failure.failed("PasskeyOptions", 0, "could not build options from \(body)")
        }
        return options
    }
}

/// UP, UV, BE and BS of the authenticator data (WebAuthn L3 §6.1). Passkeys are user-verified: UP and UV set.
struct AuthenticatorFlags: Sendable, Hashable, CustomStringConvertible {
    var up = true
    var uv = true
    /// Backup eligible: a synced passkey (`amr` `swk`); clear, a device-bound one (`hwk`).
    var be = false
    var bs = false

    static let deviceBound = AuthenticatorFlags()
    static let synced = AuthenticatorFlags(be: true, bs: true)

    var object: [String: Bool] { ["up": up, "uv": uv, "be": be, "bs": bs] }
    var description: String { "up=\(up) uv=\(uv) be=\(be) bs=\(bs)" }
}

/// A way `Tests/webauthn/authenticator.py create` breaks a registration (its `CREATE_MUTATIONS`).
enum RegistrationMutation: String, CaseIterable, Sendable {
    case wrongType = "wrong_type"
    case wrongChallenge = "wrong_challenge"
    case foreignOrigin = "foreign_origin"
    case wrongRPIDHash = "wrong_rp_id_hash"
    case upClear = "up_clear"
    case uvClear = "uv_clear"
    case bsWithoutBE = "bs_without_be"
    case atClear = "at_clear"
    case trailingAuthData = "trailing_auth_data"
    case unofferedAlgorithm = "unoffered_alg"
    case algorithmKeyMismatch = "alg_key_mismatch"
    case offCurve = "off_curve"
    case smallRSA = "small_rsa"
    case duplicateMapKey = "duplicate_map_key"
    case duplicateCOSEKey = "duplicate_cose_key"
    case indefiniteMap = "indefinite_map"
    case trailingBytes = "trailing_bytes"
    case noneWithAttStmt = "none_with_att_stmt"
    case rawIDMismatch = "raw_id_mismatch"
    case emptyChallenge = "empty_client_data_challenge"
}

/// A way `Tests/webauthn/authenticator.py get` breaks an assertion (its `GET_MUTATIONS`).
enum AssertionMutation: String, CaseIterable, Sendable {
    case wrongType = "wrong_type"
    case wrongChallenge = "wrong_challenge"
    case foreignOrigin = "foreign_origin"
    case wrongRPIDHash = "wrong_rp_id_hash"
    case upClear = "up_clear"
    case uvClear = "uv_clear"
    case bsWithoutBE = "bs_without_be"
    case badSignature = "bad_signature"
    case signedOtherData = "signed_other_data"
    case trailingAuthData = "trailing_auth_data"
}

/// A credential the software authenticator made: what it keeps (the private key among it) for later assertions,
/// as the JSON object `create` answered under "stored".
struct StoredPasskey: Sendable, CustomStringConvertible {
    /// The "stored" object, as JSON text.
    let json: String
    /// base64url.
    let credentialID: String
    /// base64url: `user.id` of the registration options.
    let userHandle: String
    let algorithm: Int
    let backupEligible: Bool

    var description: String { "credential \(credentialID) alg \(algorithm) be \(backupEligible)" }

    var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]) ?? [:] }
}

/// One `create`: the RegistrationResponseJSON to send, and the credential kept.
struct SoftwareRegistration: Sendable {
    /// RegistrationResponseJSON, as JSON text.
    let credential: String
    let stored: StoredPasskey
    /// The options it answered.
    let options: PasskeyOptions
    let origin: String
}

/// What py_webauthn's `verify_registration_response` made of a registration.
struct ReferenceVerdict: Sendable, CustomStringConvertible {
    let verified: Bool
    let error: String?
    let credentialID: String?
    var description: String { verified ? "accepted (credential \(credentialID ?? "?"))" : "refused: \(error ?? "?")" }
}

/// A WebAuthn platform authenticator and client in one, played by `Tests/webauthn/authenticator.py` (cbor2 and
/// cryptography from PyPI): it builds registrations and assertions without any of latchd's WebAuthn code, and can
/// break them one way at a time. `self_check.py` beside it shows py_webauthn accepts what it builds unbroken.
enum SoftwareAuthenticator {
    static let script = "authenticator.py"

    /// `navigator.credentials.create()` answering `options`.
    /// - Parameters:
    ///   - origin: `clientDataJSON.origin`; nil: `https://` + the RP ID.
    ///   - algorithm: COSE -7, -8 or -257.
    ///   - credentialID: base64url, instead of fresh random bytes (e.g. another user's).
    static func create(
        _ options: PasskeyOptions, origin: String? = nil, algorithm: Int = -7, flags: AuthenticatorFlags = .deviceBound,
        signCount: UInt32 = 0, mutations: [RegistrationMutation] = [], credentialID: String? = nil
    ) throws -> SoftwareRegistration {
        var request: [String: Any] = [
            "options": options.object, "alg": algorithm, "flags": flags.object, "sign_count": Int(signCount),
            "mutations": mutations.map(\.rawValue),
        ]
        request["origin"] = origin
        request["credential_id"] = credentialID
        let answer = try run("create", request)
        guard let credential = answer["credential"], let storedObject = answer["stored"] as? [String: Any],
              let storedID = storedObject["credential_id"] as? String,
              let userHandle = storedObject["user_handle"] as? String, let alg = storedObject["alg"] as? Int
        else { throw VenvScript.Failure.failed(script, 0, "create answered \(answer)") }
        let stored = StoredPasskey(
            json: try text(storedObject), credentialID: storedID, userHandle: userHandle, algorithm: alg,
            backupEligible: storedObject["be"] as? Bool ?? false)
        return SoftwareRegistration(credential: try text(credential), stored: stored, options: options,
                                    origin: origin ?? "https://\(options.rpID ?? "")")
    }

    /// `navigator.credentials.get()` with `passkey`, answering `options`: AuthenticationResponseJSON as JSON text.
    /// - Parameters:
    ///   - flags: nil: UP and UV set, BE and BS as registered.
    ///   - userHandle: `.some(nil)` sends no userHandle; `.some(x)` sends x instead of the registered one.
    ///   - credentialID: base64url, sent as `id`/`rawId` instead of the passkey's own (still signed with its key).
    static func get(
        _ options: PasskeyOptions, with passkey: StoredPasskey, origin: String? = nil, signCount: UInt32 = 0,
        flags: AuthenticatorFlags? = nil, mutations: [AssertionMutation] = [], userHandle: String?? = .none,
        credentialID: String? = nil
    ) throws -> String {
        var request: [String: Any] = [
            "options": options.object, "credential": passkey.object, "sign_count": Int(signCount),
            "mutations": mutations.map(\.rawValue),
        ]
        request["origin"] = origin
        request["flags"] = flags?.object
        request["credential_id"] = credentialID
        if case .some(let handle) = userHandle { request["user_handle"] = handle ?? NSNull() }
        let answer = try run("get", request)
        guard let credential = answer["credential"] else {
            throw VenvScript.Failure.failed(script, 0, "get answered \(answer)")
        }
        return try text(credential)
    }

    /// py_webauthn's verdict on `registration`, user verification required, the three algorithms latchd offers
    /// supported, `origins` allowed.
    static func referenceVerdict(_ registration: SoftwareRegistration, origins: [String]? = nil) throws
        -> ReferenceVerdict
    {
        let request: [String: Any] = [
            "credential": try JSONSerialization.jsonObject(with: Data(registration.credential.utf8)),
            "challenge": registration.options.challenge, "rp_id": registration.options.rpID ?? "",
            "origins": origins ?? [registration.origin], "algorithms": [-7, -8, -257],
        ]
        let answer = try run("verify-registration", request)
        return ReferenceVerdict(verified: answer["verified"] as? Bool == true, error: answer["error"] as? String,
                                credentialID: answer["credential_id"] as? String)
    }

    private static func run(_ command: String, _ request: [String: Any]) throws -> [String: Any] {
        let output = try VenvScript.run(script, [command], input: try text(request), directory: "webauthn")
        guard let answer = try VenvScript.objects(output).first else {
            throw VenvScript.Failure.failed(script, 0, "\(command) printed nothing")
        }
        return answer
    }

    static func text(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
