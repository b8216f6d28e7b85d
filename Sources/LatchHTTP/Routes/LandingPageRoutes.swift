import AuthCore
import HTTPServer

/// `GET`/`POST /confirmAuth`, `/resetPassword`, `/confirmEmailChange` and `/acceptInvite`, and `GET /signIn`: the
/// web fallback behind the universal link, for people who open it where the app is not installed (ARCHITECTURE.md, "Mail").
///
/// GET only reads the token's state (mail scanners prefetch links; a GET that spent the token would break sign-up),
/// and shows a button or a new-password form; the POST redeems it through `AuthService`. A sign-in record is bound to
/// the app instance that asked for it, so its page only says to open the app on that device (or type the mail's code
/// there), and `/signIn` takes no POST. The token appears only in the hidden field and the "Open in app" link, never
/// in a log line or an error report.
///
/// A page speaks its account's language when its link is usable (the person the mail went to is likely the one
/// reading), else the browser's (`LandingLanguages`).
struct LandingPageRoutes: Sendable {
    let pages: LandingPageRenderer
    let auth: AuthService
    let languages: LandingLanguages
    let clients: ClientInfoResolver
    let checks: LandingFormSubmission.Checks
    /// Reset and accepting an invitation hash the new password, so their POSTs run off the MHD threads.
    let hashingPool: WorkerPool
    let errorReporter: LatchAPI.ErrorReporter?

    func register(on router: inout Router) {
        for flow in LandingFlow.allCases {
            router.get(flow.path) { request in show(flow, request) }
        }
        // A POST only where the page has a form to send; a path without one answers POST with the router's 405.
        for flow in LandingFlow.allCases {
            switch flow.form {
            case .confirmAddress: router.post(flow.path) { request in confirm(request) }
            case .newPassword: router.post(flow.path, pool: hashingPool) { request in reset(request) }
            case .changeAddress: router.post(flow.path) { request in changeEmail(request) }
            case .firstPassword: router.post(flow.path, pool: hashingPool) { request in acceptInvite(request) }
            case nil: continue
            }
        }
    }

    func show(_ flow: LandingFlow, _ request: HTTPRequest) -> HTTPResponse {
        let tokens = request.queryValues("token")
        if flow == .reset, request.query.isEmpty {
            // No link at all: the form for the address and the code typed from the mail.
            let typed = LandingCredential.typedCode(email: "", code: "")
            return readyPage(flow, credential: typed, self.language(of: request), request)
        }
        guard tokens.count == 1, let token = tokens.first else {
            return respond(LandingPage(flow: flow, state: .invalid), self.language(of: request))
        }
        let state: LandingPageState
        let language: LandingLanguage
        do {
            let inspection = try TokenInspector(auth: auth).inspect(token, purpose: flow.purpose)
            state = inspection.state
            language = self.language(of: request, account: inspection.locale)
        } catch {
            return unexpected(flow, error, self.language(of: request))
        }
        guard case .ready = state else { return respond(LandingPage(flow: flow, state: state), language) }
        guard flow.form != nil else {
            // Nothing to submit (sign-in): no form, so no CSRF cookie; the token goes only into "Open in app".
            return respond(LandingPage(flow: flow, state: state, credential: .token(token)), language)
        }
        var addressChange: AddressChange?
        if flow == .emailChange {
            do {
                // Nil only if the link stopped being usable since its state was read (used in another tab).
                guard let preview = try auth.emailChangePreview(token: token) else {
                    return respond(LandingPage(flow: flow, state: .invalid), language)
                }
                addressChange = AddressChange(from: preview.from, to: preview.to)
            } catch {
                return unexpected(flow, error, language)
            }
        }
        return readyPage(flow, credential: .token(token), addressChange: addressChange, language, request)
    }

    /// The form, with a CSRF cookie: the one already set is reused, so two tabs opened from two mails both work.
    private func readyPage(
        _ flow: LandingFlow, credential: LandingCredential, addressChange: AddressChange? = nil,
        _ language: LandingLanguage, _ request: HTTPRequest
    ) -> HTTPResponse {
        let existing = checks.cookie.value(in: request.headers)
        let csrf = existing ?? checks.generator.makeToken()
        let page = LandingPage(flow: flow, state: .ready(problem: nil), credential: credential, csrf: csrf,
                               addressChange: addressChange)
        return respond(page, language, setCookie: existing == nil ? csrf : nil)
    }

    /// The browser's language: for a page that knows no account.
    private func language(of request: HTTPRequest, account: String? = nil) -> LandingLanguage {
        languages.language(account: account, acceptLanguage: request.headers.values(for: "Accept-Language"))
    }

    /// A POST's language: its token's account's, read before the token is spent (a typed code names no account
    /// until it is checked, so its page follows the browser). A store failure here only costs the account's
    /// language: the redemption that follows meets it too and reports it.
    private func language(of request: HTTPRequest, form: LandingFormSubmission, flow: LandingFlow) -> LandingLanguage {
        guard case .token(let token) = form.credential, TokenText.isToken(token) else { return language(of: request) }
        let account = (try? auth.locale(ofToken: token, purpose: flow.purpose)) ?? nil
        return language(of: request, account: account)
    }

    func confirm(_ request: HTTPRequest) -> HTTPResponse {
        let form: LandingFormSubmission
        do {
            form = try LandingFormSubmission(request, flow: .confirm, checks: checks)
        } catch {
            return respond(LandingPage(flow: .confirm, state: error.state), self.language(of: request))
        }
        let language = self.language(of: request, form: form, flow: .confirm)
        let client = clients.resolve(request)
        do {
            // Confirming here opens no session: the person at the browser would never receive its tokens.
            guard case .token(let token) = form.credential else {
                return respond(LandingPage(flow: .confirm, state: .badForm), language)
            }
            try auth.confirmEmail(token: token, ip: client.ip)
            return respond(LandingPage(flow: .confirm, state: .done), language)
        } catch {
            return failure(.confirm, error, form: form, language)
        }
    }

    /// Confirms a change of address from the link mailed to the new address; sessions stay signed in.
    func changeEmail(_ request: HTTPRequest) -> HTTPResponse {
        let form: LandingFormSubmission
        do {
            form = try LandingFormSubmission(request, flow: .emailChange, checks: checks)
        } catch {
            return respond(LandingPage(flow: .emailChange, state: error.state), self.language(of: request))
        }
        let language = self.language(of: request, form: form, flow: .emailChange)
        do {
            guard case .token(let token) = form.credential else {
                return respond(LandingPage(flow: .emailChange, state: .badForm), language)
            }
            try auth.confirmEmailChange(token: token, ip: clients.clientIP(request))
            return respond(LandingPage(flow: .emailChange, state: .done), language)
        } catch {
            return failure(.emailChange, error, form: form, language)
        }
    }

    func reset(_ request: HTTPRequest) -> HTTPResponse {
        let form: LandingFormSubmission
        do {
            form = try LandingFormSubmission(request, flow: .reset, checks: checks)
        } catch {
            return respond(LandingPage(flow: .reset, state: error.state), self.language(of: request))
        }
        let language = self.language(of: request, form: form, flow: .reset)
        do {
            let ip = clients.clientIP(request)
            switch form.credential {
            case .token(let token):
                try auth.resetPassword(token: token, newPassword: form.password ?? "",
                                       secondFactor: form.secondFactorProof, ip: ip)
            case .typedCode(let email, let code):
                try auth.resetPassword(email: email, code: code, newPassword: form.password ?? "",
                                       secondFactor: form.secondFactorProof, ip: ip)
            }
            return respond(LandingPage(flow: .reset, state: .done), language)
        } catch {
            return failure(.reset, error, form: form, language)
        }
    }

    /// Sets an invited account's first password, which confirms the address; opens no session (the person signs
    /// in in the app).
    func acceptInvite(_ request: HTTPRequest) -> HTTPResponse {
        let form: LandingFormSubmission
        do {
            form = try LandingFormSubmission(request, flow: .invite, checks: checks)
        } catch {
            return respond(LandingPage(flow: .invite, state: error.state), self.language(of: request))
        }
        let language = self.language(of: request, form: form, flow: .invite)
        do {
            guard case .token(let token) = form.credential else {
                return respond(LandingPage(flow: .invite, state: .badForm), language)
            }
            try auth.acceptInviteWithoutSession(token: token, password: form.password ?? "",
                                                ip: clients.clientIP(request))
            return respond(LandingPage(flow: .invite, state: .done), language)
        } catch {
            return failure(.invite, error, form: form, language)
        }
    }

    /// The page for a refused redemption. A weak password shows the form again with the reason: AuthCore checks the
    /// policy before spending the token, so the same link still works. A typed code that did not work (or an
    /// address that is no address) shows the code form again, as typed, with the reason.
    private func failure(
        _ flow: LandingFlow, _ error: any Error, form: LandingFormSubmission, _ language: LandingLanguage
    ) -> HTTPResponse {
        guard let error = error as? AuthError else { return unexpected(flow, error, language) }
        var state = LandingPageState(refusal: error)
        if case .typedCode = form.credential, error == .invalidCode || error == .invalidEmail {
            state = .ready(problem: error == .invalidCode ? .codeInvalid : .emailInvalid)
        }
        guard case .ready = state else { return respond(LandingPage(flow: flow, state: state), language) }
        return respond(LandingPage(flow: flow, state: state, credential: form.credential, csrf: form.csrf), language)
    }

    /// A store failure: reported (the error names no token), answered with a generic page.
    private func unexpected(_ flow: LandingFlow, _ error: any Error, _ language: LandingLanguage) -> HTTPResponse {
        errorReporter?(flow.path, error)
        return respond(LandingPage(flow: flow, state: .unavailable), language)
    }

    private func respond(_ page: LandingPage, _ language: LandingLanguage, setCookie csrf: String? = nil)
        -> HTTPResponse {
        var response = HTTPResponse.html(pages.render(page, in: language), status: page.state.status)
        LandingPageHeaders.apply(to: &response, style: pages.style, language: language)
        if let csrf { response.headers.add(name: "Set-Cookie", value: checks.cookie.setCookie(csrf)) }
        if case .rateLimited(let seconds) = page.state {
            response.headers.replaceOrAdd(name: "Retry-After", value: String(seconds))
        }
        return response
    }
}
