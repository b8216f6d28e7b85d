import AuthCore
import DeepLinkRouting
import HTMLEscaping

/// Renders landing pages: small, self-contained HTML (no external assets, no script, one inline stylesheet allowed by
/// its hash), with `lang`, labelled fields and a live status region, every word in one language. Every interpolated
/// value is HTML-escaped, whatever the language.
struct LandingPageRenderer: Sendable {
    let productName: String
    let printer: DeepLinkPrinter
    let style: LandingPageStyle

    func render(_ page: LandingPage, in language: LandingLanguage) -> String {
        let words = LandingPageWords(language, productName: productName)
        let text = LandingPageText(flow: page.flow, state: page.state, words: words, addressChange: page.addressChange)
        let e = HTMLText.escape
        var body = "<h1>\(e(text.heading))</h1>\n<p id=\"status\" role=\"status\">\(e(text.message))</p>\n"
        if let form = page.form, let credential = page.credential, let csrf = page.csrf {
            body += self.form(form, page, credential: credential, csrf: csrf, words: words)
        }
        if let token = page.appToken {
            // Without a form, opening the app is the page's one action, so it looks like the button it is.
            body += appLink(printer.customSchemeURL(for: page.flow.appLink(token: token)).absoluteString,
                            label: words.openInApp, primary: page.form == nil)
        } else if Self.offersHomeLink(page.state) {
            body += appLink(printer.customSchemeURL(for: .home).absoluteString, label: words.openApp)
        }
        return """
            <!doctype html>
            <html lang="\(language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="robots" content="noindex">
            <title>\(e(text.heading)) · \(e(productName))</title>
            <style>\(LandingPageStyle.css)</style>
            </head>
            <body>
            <main data-flow="\(e(page.flow.rawValue))" data-state="\(e(page.state.name))">
            \(body)</main>
            </body>
            </html>

            """
    }

    /// The confirm button, or the new-password form; both post the token in a hidden field, never in the URL, or
    /// (reset by code) the address and code fields beside the password.
    private func form(
        _ form: LandingForm, _ page: LandingPage, credential: LandingCredential, csrf: String, words: LandingPageWords
    ) -> String {
        let e = HTMLText.escape
        var html = "<form method=\"post\" action=\"\(e(page.flow.formAction))\">\n"
        switch credential {
        case .token(let token):
            html += "<input type=\"hidden\" name=\"token\" value=\"\(e(token))\">\n"
        case .typedCode(let email, let code):
            html += "<label for=\"email\">\(e(words.emailLabel))</label>\n"
                + "<input id=\"email\" name=\"email\" type=\"email\" "
                + "autocomplete=\"email\" required maxlength=\"\(FieldLimits.emailBytes)\" value=\"\(e(email))\">\n"
            html += "<label for=\"code\">\(e(words.codeLabel))</label>\n"
                + "<input id=\"code\" name=\"code\" type=\"text\" "
                + "inputmode=\"numeric\" autocomplete=\"one-time-code\" required maxlength=\"\(FieldLimits.codeBytes)\" "
                + "value=\"\(e(code))\">\n"
        }
        html += "<input type=\"hidden\" name=\"\(CSRFCookie.fieldName)\" value=\"\(e(csrf))\">\n"
        switch form {
        case .confirmAddress, .changeAddress: break
        case .newPassword:
            html += passwordField(problem: problem(of: page.state).map(words.problem), words: words)
            html += secondFactorField(words: words)
        case .firstPassword:
            html += passwordField(problem: problem(of: page.state).map(words.problem), words: words)
        }
        html += "<button type=\"submit\">\(e(words.submitLabel(form)))</button>\n"
        return html + "</form>\n"
    }

    /// The length hints come from AuthCore's policy; the server checks again, so they are only a convenience.
    private func passwordField(problem: String?, words: LandingPageWords) -> String {
        let minimum = PasswordPolicy.minimumLength
        let maximum = PasswordPolicy.maximumLength
        var describedBy = "password-hint"
        var html = "<label for=\"password\">\(HTMLText.escape(words.newPasswordLabel))</label>\n"
        if let problem {
            describedBy += " password-problem"
            html += "<p id=\"password-problem\" class=\"problem\" role=\"alert\">\(HTMLText.escape(problem))</p>\n"
        }
        html += "<input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"new-password\" required "
            + "minlength=\"\(minimum)\" maxlength=\"\(maximum)\" aria-describedby=\"\(describedBy)\""
            + (problem == nil ? "" : " aria-invalid=\"true\"") + ">\n"
        html += "<p id=\"password-hint\" class=\"hint\">\(HTMLText.escape(words.passwordHint(minimum, maximum)))</p>\n"
        return html
    }

    /// Optional: only an account with two-step verification needs it (a reset must not get around it); the
    /// server says so next to the password when it is missing.
    private func secondFactorField(words: LandingPageWords) -> String {
        let name = LandingFormSubmission.secondFactorField
        let e = HTMLText.escape
        return "<label for=\"\(name)\">\(e(words.secondFactorLabel))</label>\n"
            + "<input id=\"\(name)\" name=\"\(name)\" type=\"text\" autocomplete=\"one-time-code\" "
            + "maxlength=\"\(FieldLimits.recoveryCodeBytes)\" aria-describedby=\"\(name)-hint\">\n"
            + "<p id=\"\(name)-hint\" class=\"hint\">\(e(words.secondFactorHint))</p>\n"
    }

    private func problem(of state: LandingPageState) -> LandingProblem? {
        if case .ready(let problem) = state { return problem }
        return nil
    }

    private func appLink(_ href: String, label: String, primary: Bool = false) -> String {
        "<p><a class=\"app\(primary ? " primary" : "")\" id=\"open-in-app\" href=\"\(HTMLText.escape(href))\">"
            + "\(HTMLText.escape(label))</a></p>\n"
    }

    /// After an outcome the app is where the person goes next (sign in, ask for a new link).
    private static func offersHomeLink(_ state: LandingPageState) -> Bool {
        switch state {
        case .done, .expired, .used, .invalid: true
        default: false
        }
    }
}
