/// One landing page to render: the flow, its state, and for `.ready` the token or typed code the page carries and,
/// with a form, its CSRF value.
struct LandingPage: Equatable, Sendable {
    let flow: LandingFlow
    let state: LandingPageState
    /// What the form, or (without a form) the app, redeems with; only for `.ready`.
    var credential: LandingCredential?
    /// The double-submit value (see `CSRFCookie`); only for `.ready` with a form.
    var csrf: String?
    /// (email change, `.ready`) The masked addresses the link moves the account between.
    var addressChange: AddressChange?

    init(
        flow: LandingFlow, state: LandingPageState, credential: LandingCredential? = nil, csrf: String? = nil,
        addressChange: AddressChange? = nil
    ) {
        self.flow = flow
        self.state = state
        self.credential = credential
        self.csrf = csrf
        self.addressChange = addressChange
    }

    /// The form the page shows: its flow's, when the token is usable and the page has a credential and `csrf`.
    var form: LandingForm? {
        guard case .ready = state, credential != nil, csrf != nil else { return nil }
        return flow.form
    }

    /// The token for the "Open in app" link: a usable link's, with or without a form.
    var appToken: String? {
        guard case .ready = state, case .token(let token)? = credential else { return nil }
        return token
    }
}

/// How a landing page names its token.
enum LandingCredential: Equatable, Sendable {
    /// The link's token, in the "Open in app" link and, on a page with a form, a hidden field.
    case token(String)
    /// The address and the code from the mail, typed in (reset only: for a mail read on another device, or a
    /// link a scanner spoilt). The values are those already typed, shown again after a refusal.
    case typedCode(email: String, code: String)
}

/// What a change-of-address page shows the person before they confirm: both addresses masked
/// (`a•••@example.com`), since whoever holds the link may not own the account.
struct AddressChange: Equatable, Sendable {
    let from: String
    let to: String
}
