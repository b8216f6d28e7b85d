import AuthCore
import Foundation
import HTTPServer

/// A landing-page POST that passed every check, in order: from our own page (`CrossSiteGuard`), a form body,
/// every field present once and within its limit, and the CSRF field equal to the cookie.
struct LandingFormSubmission: Sendable {
    /// Why a POST was not accepted: the page to show instead.
    struct Refusal: Error, Equatable {
        let state: LandingPageState
    }

    /// What the form redeems with: the hidden token, or (reset) the typed address and code.
    let credential: LandingCredential
    let csrf: String
    /// Only for the reset form.
    let password: String?
    /// Only for the reset form, and only for an account with a second factor: what was typed in the optional
    /// authenticator-code field (empty or absent: none).
    let secondFactor: String?

    /// The reset form's optional second-factor field.
    static let secondFactorField = "mfa_code"

    /// The typed second factor: six digits are a TOTP code, anything else is tried as a recovery code.
    var secondFactorProof: SecondFactorProof? {
        guard let typed = secondFactor?.trimmingCharacters(in: .whitespaces), !typed.isEmpty else { return nil }
        return TOTPPolicy.normalized(typed) != nil ? .totp(typed) : .recoveryCode(typed)
    }

    /// The checks that need no database, so a forged or broken POST costs nothing.
    struct Checks: Sendable {
        let crossSite: CrossSiteGuard
        let cookie: CSRFCookie
        let generator: any TokenGenerator
    }

    init(_ request: HTTPRequest, flow: LandingFlow, checks: Checks) throws(Refusal) {
        guard checks.crossSite.allows(request.headers) else { throw Refusal(state: .refused) }
        do {
            let form = try FormBody(request)
            if flow == .reset, !form.has("token") {
                credential = .typedCode(email: try form.value("email", maxBytes: FieldLimits.emailBytes),
                                        code: try form.value("code", maxBytes: FieldLimits.codeBytes))
            } else {
                credential = .token(try form.value("token", maxBytes: FieldLimits.tokenBytes))
            }
            csrf = try form.value(CSRFCookie.fieldName, maxBytes: FieldLimits.tokenBytes)
            password = flow.form == .newPassword || flow.form == .firstPassword
                ? try form.value("password", maxBytes: FieldLimits.passwordBytes) : nil
            secondFactor = flow == .reset
                ? try form.optionalValue(Self.secondFactorField, maxBytes: FieldLimits.recoveryCodeBytes) : nil
        } catch .unsupportedMediaType {
            throw Refusal(state: .unsupportedMediaType)
        } catch {
            throw Refusal(state: .badForm)
        }
        let cookie = checks.cookie.value(in: request.headers)
        guard checks.cookie.matches(field: csrf, cookie: cookie, using: checks.generator) else {
            throw Refusal(state: .refused)
        }
    }
}
