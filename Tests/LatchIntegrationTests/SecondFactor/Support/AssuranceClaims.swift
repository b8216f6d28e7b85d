import Foundation

/// The assurance claims of access tokens as PyJWT reads them (`Tests/pyotp/assurance_claims.py`, which runs
/// `Tests/pyjwt/verify_with_pyjwt.py` from latchd's URL alone), with each claim's JSON type as Python decoded it:
/// `1` and `1.0`, or a string and a list, are not confused on the way.
struct AssuranceClaims: CustomStringConvertible {
    let object: [String: Any]

    var isValid: Bool { object["valid"] as? Bool == true }
    var acr: String? { object["acr"] as? String }
    var amr: [String]? { object["amr"] as? [String] }
    var authTime: Int? { object["auth_time"] as? Int }
    var issuedAt: Int? { object["iat"] as? Int }
    /// The JSON types: "str", "int", "list[str]", "missing"…
    var acrType: String? { object["acr_type"] as? String }
    var amrType: String? { object["amr_type"] as? String }
    var authTimeType: String? { object["auth_time_type"] as? String }
    var description: String { "\(object)" }

    /// Each token's claims, verified by PyJWT against latchd on `port`.
    static func read(_ tokens: [String], port: Int) throws -> [AssuranceClaims] {
        let output = try VenvScript.run(
            "assurance_claims.py", ["--base", "http://127.0.0.1:\(port)", "--audience", "latch"],
            input: tokens.joined(separator: "\n"))
        let claims = try VenvScript.objects(output).map(AssuranceClaims.init)
        guard claims.count == tokens.count else { throw VenvScript.Failure.failed("assurance_claims.py", 0, output) }
        return claims
    }
}
