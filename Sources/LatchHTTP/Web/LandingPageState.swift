import AuthCore
import HTTPServer

/// What a landing page shows. Each state has its own wording, its own `data-state` value (for tests and styling)
/// and an HTTP status in line with `APIErrorMapper`'s (token errors 400/409, limits 429, refusals 403).
enum LandingPageState: Hashable, Sendable {
    /// The token is usable: show the button (confirm) or the new-password form (reset). `problem` is why a
    /// submitted form came back, shown next to the field.
    case ready(problem: LandingProblem?)
    /// Confirmed, or password changed.
    case done
    case expired
    /// Redeemed already.
    case used
    /// Replaced before it was used: a newer sign-up mail, a password change, a completed confirmation.
    case superseded
    /// (confirm) The address is confirmed already.
    case alreadyConfirmed
    /// (email change) Another account has the new address by now; nothing changed.
    case emailTaken
    /// Unknown, malformed, or meant for the other page.
    case invalid
    case disabled
    case rateLimited(retryAfter: Int)
    /// A POST that failed the cross-site checks (Origin, Sec-Fetch-Site, CSRF cookie).
    case refused
    /// A POST whose form fields are missing, repeated or too long.
    case badForm
    /// A POST that is not `application/x-www-form-urlencoded`.
    case unsupportedMediaType
    /// The store failed; details went to the error reporter, not the page.
    case unavailable

    /// The page for an AuthCore refusal: a weak password shows the form again with the reason.
    init(refusal error: AuthError) {
        self = switch error {
        case .weakPassword(let reason): .ready(problem: .weakPassword(reason))
        // The account has a second factor: the form again, asking for it (the link still works).
        case .mfaRequired: .ready(problem: .secondFactorRequired)
        case .invalidMFACode: .ready(problem: .secondFactorInvalid)
        case .tokenExpired: .expired
        case .tokenUsed: .used
        case .tokenSuperseded: .superseded
        case .alreadyConfirmed: .alreadyConfirmed
        case .emailTaken: .emailTaken
        case .userDisabled: .disabled
        case .rateLimited(let seconds): .rateLimited(retryAfter: seconds)
        default: .invalid
        }
    }

    var status: HTTPStatus {
        switch self {
        case .ready(let problem): problem == nil ? .ok : .unprocessableContent
        case .done: .ok
        case .expired, .invalid, .badForm: .badRequest
        case .used, .superseded, .alreadyConfirmed, .emailTaken: .conflict
        case .disabled, .refused: .forbidden
        case .rateLimited: .tooManyRequests
        case .unsupportedMediaType: .unsupportedMediaType
        case .unavailable: .serviceUnavailable
        }
    }

    /// Stable name in the page's `data-state` attribute.
    var name: String {
        switch self {
        case .ready: "ready"
        case .done: "done"
        case .expired: "expired"
        case .used: "used"
        case .superseded: "superseded"
        case .alreadyConfirmed: "already_confirmed"
        case .emailTaken: "email_taken"
        case .invalid: "invalid"
        case .disabled: "disabled"
        case .rateLimited: "rate_limited"
        case .refused: "refused"
        case .badForm: "bad_form"
        case .unsupportedMediaType: "unsupported_media_type"
        case .unavailable: "unavailable"
        }
    }
}

/// Why a submitted form is shown again, next to the field it concerns: a value, not a sentence, so the page says it
/// in its own language (`LandingPageWords.problem`).
enum LandingProblem: Hashable, Sendable {
    case weakPassword(WeakPasswordReason)
    /// The account has a second factor and none was typed.
    case secondFactorRequired
    case secondFactorInvalid
    /// (reset by code) The typed code did not work.
    case codeInvalid
    /// (reset by code) The typed address is no address.
    case emailInvalid
}
