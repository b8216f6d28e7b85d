import AuthCore
import DeepLinkRouting
import HTMLEscaping

/// Renders landing pages: small, self-contained HTML (no external assets, no script, one inline stylesheet allowed by
/// its hash), with `lang`, labelled fields and a live status region. Every interpolated value is HTML-escaped.
struct LandingPageRenderer: Sendable {
    let productName: String
    let printer: DeepLinkPrinter
    let style: LandingPageStyle

    func render(_ page: LandingPage) -> String {
        let text = LandingPageText(flow: page.flow, state: page.state, productName: productName,
                                   addressChange: page.addressChange)
        let e = HTMLText.escape
        var body = "<h1>\(e(text.heading))</h1>\n<p id=\"status\" role=\"status\">\(e(text.message))</p>\n"
        if let form = page.form, let credential = page.credential, let csrf = page.csrf {
            body += self.form(form, page, credential: credential, csrf: csrf)
        }
        if let token = page.appToken {
            // Without a form, opening the app is the page's one action, so it looks like the button it is.
            body += appLink(printer.customSchemeURL(for: page.flow.appLink(token: token)).absoluteString,
                            label: "Open in the \(productName) app", primary: page.form == nil)
        } else if Self.offersHomeLink(page.state) {
            body += appLink(printer.customSchemeURL(for: .home).absoluteString, label: "Open the \(productName) app")
        }
        return """
            <!doctype html>
            <html lang="en">
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
    private func form(_ form: LandingForm, _ page: LandingPage, credential: LandingCredential, csrf: String) -> String {
        let e = HTMLText.escape
        var html = "<form method=\"post\" action=\"\(e(page.flow.formAction))\">\n"
        switch credential {
        case .token(let token):
            html += "<input type=\"hidden\" name=\"token\" value=\"\(e(token))\">\n"
        case .typedCode(let email, let code):
            html += "<label for=\"email\">Email address</label>\n<input id=\"email\" name=\"email\" type=\"email\" "
                + "autocomplete=\"email\" required maxlength=\"\(FieldLimits.emailBytes)\" value=\"\(e(email))\">\n"
            html += "<label for=\"code\">Code from the email</label>\n<input id=\"code\" name=\"code\" type=\"text\" "
                + "inputmode=\"numeric\" autocomplete=\"one-time-code\" required maxlength=\"\(FieldLimits.codeBytes)\" "
                + "value=\"\(e(code))\">\n"
        }
        html += "<input type=\"hidden\" name=\"\(CSRFCookie.fieldName)\" value=\"\(e(csrf))\">\n"
        switch form {
        case .confirmAddress, .changeAddress: break
        case .newPassword:
            html += passwordField(problem: problem(of: page.state))
            html += secondFactorField()
        }
        html += "<button type=\"submit\">\(e(form.submitLabel))</button>\n"
        return html + "</form>\n"
    }

    /// The length hints come from AuthCore's policy; the server checks again, so they are only a convenience.
    private func passwordField(problem: String?) -> String {
        let minimum = PasswordPolicy.minimumLength
        let maximum = PasswordPolicy.maximumLength
        var describedBy = "password-hint"
        var html = "<label for=\"password\">New password</label>\n"
        if let problem {
            describedBy += " password-problem"
            html += "<p id=\"password-problem\" class=\"problem\" role=\"alert\">\(HTMLText.escape(problem))</p>\n"
        }
        html += "<input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"new-password\" required "
            + "minlength=\"\(minimum)\" maxlength=\"\(maximum)\" aria-describedby=\"\(describedBy)\""
            + (problem == nil ? "" : " aria-invalid=\"true\"") + ">\n"
        html += "<p id=\"password-hint\" class=\"hint\">Between \(minimum) and \(maximum) characters.</p>\n"
        return html
    }

    /// Optional: only an account with two-step verification needs it (a reset must not get around it); the
    /// server says so next to the password when it is missing.
    private func secondFactorField() -> String {
        let name = LandingFormSubmission.secondFactorField
        return "<label for=\"\(name)\">Authenticator code or recovery code</label>\n"
            + "<input id=\"\(name)\" name=\"\(name)\" type=\"text\" autocomplete=\"one-time-code\" "
            + "maxlength=\"\(FieldLimits.recoveryCodeBytes)\" aria-describedby=\"\(name)-hint\">\n"
            + "<p id=\"\(name)-hint\" class=\"hint\">Only if you turned on two-step verification.</p>\n"
    }

    private func problem(of state: LandingPageState) -> String? {
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
