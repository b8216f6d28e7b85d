/// One landing page to render: the flow, its state, and for `.ready` the token and CSRF value for the form.
struct LandingPage: Equatable, Sendable {
    let flow: LandingFlow
    let state: LandingPageState
    /// The one-time token; only for `.ready`, where it fills the hidden field and the "Open in app" link.
    var token: String?
    /// The double-submit value (see `CSRFCookie`); only for `.ready`.
    var csrf: String?

    init(flow: LandingFlow, state: LandingPageState, token: String? = nil, csrf: String? = nil) {
        self.flow = flow
        self.state = state
        self.token = token
        self.csrf = csrf
    }

    /// Whether the page shows the form (and so needs `token` and `csrf`).
    var showsForm: Bool {
        if case .ready = state, token != nil, csrf != nil { return true }
        return false
    }
}
