// An example iOS/macOS app wired to Latch with the LatchClient and DeepLinkRouting products. Not a package
// target: copy this file into an app target that depends on both library products, register the `myapp` URL
// scheme and the associated domains `applinks:links.example.com` and `webcredentials:links.example.com` (passkeys
// are bound to the server's RP ID, by default the host of LATCH_LINK_BASE), add the Sign in with Apple capability
// (the server must accept the app's bundle ID as the token's audience), and point `serverURL` at your latchd.
//
// LatchClient does the talking (requests, Keychain, refresh, the mailed links, sign-in by mail and its pending
// secret, the second factor, passkeys, Sign in with Apple, re-authentication); NavigationModel follows its auth
// state, so no view tells the navigation that the user signed in, signed out or has a second factor to enter.
// AuthenticationServices shows the passkey sheets (`PasskeyPrompt`) and Apple's (`SignInWithAppleButton`);
// LatchClient turns their results into what the server takes.
//
// One file on purpose, so it can be copied whole; in a real app each view gets its own file.
#if canImport(SwiftUI)
import AuthenticationServices
import CoreImage.CIFilterBuiltins
import DeepLinkRouting
import LatchClient
import SwiftUI
import UIKit

@main
struct LatchExampleApp: App {
    /// Where the navigation snapshot lives between launches; it holds no token and no password.
    private static let restorationKey = "latch.navigation"

    @State private var navigation: NavigationModel
    private let latch: LatchClient

    init() {
        let configuration = DeepLinkConfiguration(appScheme: "myapp", linkBase: Self.url("https://links.example.com"))
        latch = LatchClient(baseURL: Self.url("https://auth.example.com"), store: KeychainSessionStore())
        _navigation = State(initialValue: NavigationModel(
            parser: DeepLinkParser(configuration: configuration),
            restoring: UserDefaults.standard.data(forKey: Self.restorationKey),
            onRejectedLink: { reason in print("ignored deep link: \(reason.code) (\(reason))") }
        ))
    }

    /// The link base is the value the server reads from LATCH_LINK_BASE; the server URL is where latchd listens.
    private static func url(_ literal: String) -> URL {
        guard let url = URL(string: literal) else { preconditionFailure("literal URL \(literal)") }
        return url
    }

    var body: some Scene {
        WindowGroup {
            InitialView(navigation: navigation, latch: latch)
                // Custom-scheme links and universal links both arrive here; a confirm or sign-in link's screen
                // completes it.
                .onOpenURL { url in navigation.open(url: url) }
                // Launching until the Keychain's session is read, then every sign-in and sign-out, including a
                // session the server ended (revoked, expired, signed out elsewhere).
                .task { await navigation.follow(latch) }
                .onChange(of: navigation.state) {
                    UserDefaults.standard.set(navigation.restorationData(), forKey: Self.restorationKey)
                }
        }
    }
}

/// The root follows the auth state; the stack above it is the model's typed `[AppDeepLink]` path.
struct InitialView: View {
    @Bindable var navigation: NavigationModel
    let latch: LatchClient

    var body: some View {
        switch navigation.root {
        case .launching:
            // Nothing yet: showing sign-in here would flash it at users who are signed in.
            Color.clear
        case .home, .signIn, .awaitingConfirmation, .secondFactor:
            NavigationStack(path: $navigation.path) {
                rootScreen
                    .navigationDestination(for: AppDeepLink.self) { link in
                        DestinationView(link: link, navigation: navigation, latch: latch)
                    }
            }
        }
    }

    @ViewBuilder private var rootScreen: some View {
        switch navigation.root {
        case .home:
            HomeView()
        case .awaitingConfirmation(let email):
            AwaitingConfirmationView(email: email, navigation: navigation, latch: latch)
        case .secondFactor:
            // The password (or the mailed link) was right and the account has two-step verification. A link that
            // needs the user signed in, opened before or now, waits for this screen and opens after it.
            SecondFactorView(latch: latch)
        case .signIn, .launching:
            SignInView(navigation: navigation, latch: latch)
        }
    }
}

/// One screen per pushed destination; every case is reachable by a link as well as by tapping.
struct DestinationView: View {
    let link: AppDeepLink
    let navigation: NavigationModel
    let latch: LatchClient

    var body: some View {
        switch link {
        case .home:
            HomeView()
        case .profile:
            ProfileView(latch: latch)
        case .itemList:
            List(1...20, id: \.self) { number in
                NavigationLink("Item \(number)", value: AppDeepLink.itemDetail(id: String(number)))
            }
            .navigationTitle("Items")
        case .itemDetail(let id):
            Text("Item \(id)").navigationTitle("Item \(id)")
        case .confirmAuth, .confirmEmailChange:
            // Both are completed by `latch.handle`: a confirmation signs in, a change of address updates the user.
            ConfirmView(link: link, latch: latch)
        case .signIn:
            // The sign-in mail's link: its screen completes it with the secret this device kept, or says why not
            // and offers a new mail.
            EmailSignInView(latch: latch, link: link)
        case .resetPassword(let token):
            ResetPasswordView(token: token, navigation: navigation, latch: latch)
        case .acceptInvite(let token):
            AcceptInviteView(token: token, navigation: navigation, latch: latch)
        }
    }
}

struct HomeView: View {
    var body: some View {
        List {
            NavigationLink("Profile", value: AppDeepLink.profile)
            NavigationLink("Items", value: AppDeepLink.itemList)
        }
        .navigationTitle("Home")
    }
}

struct ProfileView: View {
    let latch: LatchClient
    @State private var email = ""
    @State private var sessions: [SessionInfo] = []
    @State private var currentPassword = ""
    @State private var newPassword = ""
    @State private var newEmail = ""
    @State private var message: String?
    /// The change the server refused for want of a recent re-authentication, tried again once the user proved it
    /// is them.
    @State private var awaitingProof: PrivilegedChange?
    @State private var mfa: MFAStatus?
    /// An authenticator being added: its sheet shows the QR code, asks for a code, then shows the recovery codes.
    @State private var enrollment: Presented<TOTPEnrollment>?
    /// New recovery codes, shown once.
    @State private var recoveryCodes: Presented<[String]>?
    @State private var passkeys: [Passkey] = []
    @State private var passkeyPrompt = PasskeyPrompt()
    /// The Apple IDs that sign in to this account.
    @State private var identities: [LinkedIdentity] = []
    /// The language the server writes to the user in; nil from a server older than languages.
    @State private var locale: String?

    /// The languages offered: the ones the server has mail in. Another one is refused (`unsupportedLocale`).
    static let languages = ["en", "de", "fr"]

    var body: some View {
        Form {
            Text(email)
            if let message { Text(message) }
            if let locale {
                // The language of the mail and of the pages the links open; at sign-up the server picked it from the
                // device's languages (LatchClient sends them with every request). Not privileged: no password.
                Section("Language") {
                    Picker("Mail and pages in", selection: Binding(get: { locale }, set: { choose($0) })) {
                        ForEach(Self.languages, id: \.self) { tag in Text(Self.name(of: tag)).tag(tag) }
                        if !Self.languages.contains(locale) { Text(Self.name(of: locale)).tag(locale) }
                    }
                }
            }
            // A session alone may not make these changes: each takes the current password, or none right after
            // the user confirmed it is them (`ReauthenticationView`, shown when the server asks for it). With
            // two-step verification on, the password is not enough: only a code of the second factor confirms it.
            Section("Password") {
                // Leave it empty to confirm it's you another way; an account that only ever signed in by mail has
                // none, and sets its first password so.
                SecureField("Current password", text: $currentPassword)
                SecureField("New password", text: $newPassword)
                Button("Change password") {
                    let current = currentPassword.isEmpty ? nil : currentPassword
                    run("Password changed; your other devices were signed out.") { () async throws(LatchError) in
                        try await latch.changePassword(current: current, new: newPassword)
                    }
                }
            }
            Section("Email address") {
                TextField("New email address", text: $newEmail)
                Button("Change email address") {
                    run("Open the link we mailed to \(newEmail) to finish.") { () async throws(LatchError) in
                        try await latch.changeEmail(to: newEmail)
                    }
                }
            }
            Section("Two-step verification") {
                if let mfa {
                    ForEach(mfa.factors) { factor in
                        HStack {
                            VStack(alignment: .leading) {
                                Text(factor.name)
                                Text(factor.lastUsedAt.map { "Last used \($0.formatted())" } ?? "Not used yet")
                                    .font(.caption)
                            }
                            Spacer()
                            // Privileged: the server first wants a code of the factor (acr_values aal2), which
                            // `run` asks for.
                            Button("Remove", role: .destructive) {
                                run("Authenticator removed.") { () async throws(LatchError) in
                                    try await latch.removeTOTP(factorID: factor.id)
                                }
                            }
                        }
                    }
                    if mfa.isEnabled {
                        Text("\(mfa.recoveryCodesRemaining) recovery codes left")
                        Button("New recovery codes") {
                            run(nil) { () async throws(LatchError) in
                                let codes = try await latch.regenerateRecoveryCodes()
                                recoveryCodes = Presented(codes)
                            }
                        }
                    }
                    Button(mfa.isEnabled ? "Add another authenticator" : "Turn on two-step verification") {
                        run(nil) { () async throws(LatchError) in
                            // Privileged too: without a recent proof `run` asks for one and tries again.
                            let started = try await latch.enrollTOTP()
                            enrollment = Presented(started)
                        }
                    }
                }
            }
            Section("Passkeys") {
                ForEach(passkeys) { passkey in
                    HStack {
                        VStack(alignment: .leading) {
                            Text(passkey.name)
                            Text((passkey.backedUp ? "Synced · " : "This device only · ")
                                 + (passkey.lastUsedAt.map { "last used \($0.formatted())" } ?? "not used yet"))
                                .font(.caption)
                        }
                        Spacer()
                        // Privileged, as removing an authenticator. The passwords app keeps its copy, which no
                        // longer signs in.
                        Button("Remove", role: .destructive) {
                            run("Passkey removed. You can delete it in the Passwords app too.") {
                                () async throws(LatchError) in try await latch.deletePasskey(id: passkey.id)
                            }
                        }
                    }
                }
                Button("Add a passkey") {
                    report { () async throws(LatchError) -> String? in
                        // Privileged: without a recent proof `report` asks for one and tries again.
                        let options = try await latch.passkeyRegistrationOptions()
                        // nil: the user closed the sheet, or this device has a passkey of the account already.
                        guard let credential = await passkeyPrompt.registration(for: options) else { return nil }
                        let passkey = try await latch.registerPasskey(challengeID: options.challengeID,
                                                                      credential: credential)
                        return "Passkey \"\(passkey.name)\" added: sign in with it next time."
                    }
                }
            }
            if !identities.isEmpty {
                Section("Sign in with Apple") {
                    ForEach(identities) { identity in
                        HStack {
                            VStack(alignment: .leading) {
                                // Apple's relay address when the user chose to hide theirs.
                                Text(identity.email ?? "Apple ID")
                                Text((identity.isPrivateEmail ? "Hidden address · " : "")
                                     + "last used \(identity.lastUsedAt.formatted())")
                                    .font(.caption)
                            }
                            Spacer()
                            // Privileged, as removing a passkey; the server keeps an account's last way to sign in.
                            Button("Unlink", role: .destructive) {
                                run("Apple ID unlinked. You can also stop using it with this app in Settings.") {
                                    () async throws(LatchError) in try await latch.unlinkIdentity(identity.id)
                                }
                            }
                        }
                    }
                }
            }
            Section("Signed in on") {
                ForEach(sessions) { session in
                    HStack {
                        Text(session.userAgent ?? "Unknown device") + Text(session.current ? " (this device)" : "")
                            + Text(session.aal == .aal2 ? " · two-step" : "")
                        Spacer()
                        Button("Sign out") {
                            run(nil) { () async throws(LatchError) in try await latch.revokeSession(session) }
                        }
                    }
                }
                Button("Sign out everywhere else") {
                    run(nil) { () async throws(LatchError) in try await latch.signOut(scope: .others) }
                }
            }
            // Ends the session here and at the server; the navigation follows (the stack empties).
            Button("Sign out") { Task { try? await latch.signOut() } }
            // Signs out when done; the navigation follows.
            Button("Delete account", role: .destructive) {
                run(nil) { () async throws(LatchError) in try await latch.deleteAccount() }
            }
        }
        .navigationTitle("Profile")
        // Refreshed transparently if the access token expired meanwhile.
        .task { await reload() }
        .sheet(item: $awaitingProof) { change in
            ReauthenticationView(latch: latch, secondFactor: change.secondFactor) {
                awaitingProof = nil
                report(change.action)
            }
        }
        .sheet(item: $enrollment, onDismiss: { Task { await reload() } }) { pending in
            EnrollTOTPView(latch: latch, enrollment: pending.value) { enrollment = nil }
        }
        .sheet(item: $recoveryCodes) { codes in
            NavigationStack {
                Form { RecoveryCodesSection(codes: codes.value) }
                    .toolbar { Button("I saved them") { recoveryCodes = nil } }
            }
        }
    }

    private func reload() async {
        let user = try? await latch.me()
        email = user?.email ?? ""
        locale = user?.locale
        sessions = (try? await latch.sessions()) ?? []
        mfa = try? await latch.mfaStatus()
        passkeys = (try? await latch.passkeys()) ?? []
        identities = (try? await latch.identities()) ?? []
    }

    /// Sets the user's language at the server; shown at once, and put back by the reload if the server refused it.
    private func choose(_ tag: String) {
        guard tag != locale else { return }
        locale = tag
        run("Mail will come in \(Self.name(of: tag)) from now on.") { () async throws(LatchError) in
            _ = try await latch.setLocale(tag)
        }
    }

    /// A language's name in that language ("Deutsch", "français"), so a user who cannot read the current one finds
    /// theirs.
    static func name(of tag: String) -> String {
        Locale(identifier: tag).localizedString(forIdentifier: tag) ?? tag
    }

    /// Runs a change and says how it went. The closures spell out `throws(LatchError)`: Swift 6 infers `any Error`
    /// for a closure's throws from its body, whatever the parameter's type.
    private func run(_ success: String?, _ action: @escaping () async throws(LatchError) -> Void) {
        report { () async throws(LatchError) -> String? in
            try await action()
            return success
        }
    }

    /// `run`, for a change whose outcome tells what to say (nil: nothing, as when the user closed a passkey sheet).
    private func report(_ action: @escaping () async throws(LatchError) -> String?) {
        Task {
            do throws(LatchError) {
                message = try await action()
            } catch LatchError.reauthenticationRequired(_, let acrValues) {
                // No password given and no recent proof: ask for one, then try the same change again. With
                // acr_values aal2 (the account has two-step verification) only a code of the second factor will do.
                let secondFactor = acrValues?.split(separator: " ").contains("aal2") == true
                awaitingProof = PrivilegedChange(secondFactor: secondFactor, action: action)
            } catch {
                message = ErrorText.message(for: error)
            }
            await reload()
        }
    }
}

/// A change waiting for the user to prove it is them.
struct PrivilegedChange: Identifiable {
    let id = UUID()
    /// Whether only the second factor (or a passkey) will do (the challenge's acr_values is aal2).
    let secondFactor: Bool
    /// The change; it answers what to tell the user.
    let action: () async throws(LatchError) -> String?
}

/// A value shown in a sheet once (`sheet(item:)` wants an identity).
struct Presented<Value>: Identifiable {
    let id = UUID()
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// "Confirm it's you": a passkey, the password, or a code mailed to the account's address (an account signed in by
/// mail has no password; a user may have forgotten it); for an account with two-step verification, a passkey, a code
/// of the authenticator app or a recovery code, and nothing else (a passkey is both factors). The client puts the
/// new access token it brings in place; changes then need no password for a while (`max_age`, 10 minutes by default).
struct ReauthenticationView: View {
    let latch: LatchClient
    /// The server asked for the second factor (acr_values aal2): a password or a mailed code would not do.
    var secondFactor = false
    let onConfirmed: () -> Void
    @State private var password = ""
    @State private var code = ""
    @State private var recoveryCode = ""
    @State private var codeSent = false
    @State private var problem: String?
    @State private var passkeyPrompt = PasskeyPrompt()

    var body: some View {
        NavigationStack {
            Form {
                Section("With a passkey") {
                    Button("Use a passkey") { confirmWithPasskey() }
                }
                if secondFactor {
                    Section("With your authenticator app") {
                        TextField("6-digit code", text: $code)
                            .textContentType(.oneTimeCode)
                            .keyboardType(.numberPad)
                        Button("Confirm") { confirm(.authenticatorCode(code)) }
                    }
                    Section("Or with a recovery code") {
                        TextField("XXXX-XXXX-XXXX-XXXX", text: $recoveryCode)
                            .textInputAutocapitalization(.characters)
                            .autocorrectionDisabled()
                        Button("Confirm with a recovery code") { confirm(.recoveryCode(recoveryCode)) }
                    }
                } else {
                    passwordOrMail
                }
                if let problem { Text(problem).foregroundStyle(.red) }
            }
            .navigationTitle("Confirm it's you")
        }
    }

    @ViewBuilder private var passwordOrMail: some View {
        Section("With your password") {
            SecureField("Password", text: $password)
            Button("Confirm") { confirm(.password(password)) }
        }
        Section("Or with a code we email you") {
            if codeSent {
                TextField("8-digit code", text: $code)
                    .textContentType(.oneTimeCode)
                    .keyboardType(.numberPad)
                Button("Confirm with the code") { confirm(.emailCode(code)) }
            }
            Button(codeSent ? "Send another code" : "Email me a code") {
                Task {
                    do throws(LatchError) {
                        try await latch.requestReauthenticationCode()
                        codeSent = true
                    } catch {
                        problem = ErrorText.message(for: error)
                    }
                }
            }
        }
    }

    private enum Proof {
        case password(String)
        case emailCode(String)
        case authenticatorCode(String)
        case recoveryCode(String)
    }

    /// A challenge bound to this session, the platform's sheet, and the assertion to the server.
    private func confirmWithPasskey() {
        Task {
            do throws(LatchError) {
                let options = try await latch.passkeyReauthenticationOptions()
                guard let assertion = await passkeyPrompt.assertion(for: options) else { return }
                try await latch.reauthenticate(withPasskey: assertion, challengeID: options.challengeID)
                onConfirmed()
            } catch {
                problem = ErrorText.message(for: error)
            }
        }
    }

    private func confirm(_ proof: Proof) {
        Task {
            do throws(LatchError) {
                // Returns until when changes need no password; the app just tries the change again now.
                switch proof {
                case .password(let password): try await latch.reauthenticate(password: password)
                case .emailCode(let code): try await latch.reauthenticate(emailCode: code)
                case .authenticatorCode(let code): try await latch.reauthenticate(code: code)
                case .recoveryCode(let code): try await latch.reauthenticate(recoveryCode: code)
                }
                onConfirmed()
            } catch {
                problem = ErrorText.message(for: error)
            }
        }
    }
}

/// The root while a sign-in waits for its second factor: the authenticator app's code, or a recovery code. The
/// client holds the ticket (in memory, 5 minutes); this screen only reads it. Nothing here tells the navigation
/// anything: success signs in (home, then the link that waited), giving up signs out (sign-in, the link forgotten).
struct SecondFactorView: View {
    let latch: LatchClient
    @State private var ticket: MFATicket?
    @State private var methods: [MFAMethod] = []
    @State private var code = ""
    @State private var usesRecoveryCode = false
    @State private var expired = false
    @State private var problem: String?

    var body: some View {
        Form {
            if expired {
                Text("This sign-in took too long.")
                // Gives the waiting sign-in up: the navigation goes back to sign-in.
                Button("Sign in again") { Task { try? await latch.signOut() } }
            } else {
                Section(usesRecoveryCode ? "Enter one of your recovery codes"
                        : "Enter the code from your authenticator app") {
                    TextField(usesRecoveryCode ? "XXXX-XXXX-XXXX-XXXX" : "6-digit code", text: $code)
                        .textContentType(.oneTimeCode)
                        .keyboardType(usesRecoveryCode ? .asciiCapable : .numberPad)
                        .textInputAutocapitalization(.characters)
                        .autocorrectionDisabled()
                    Button("Continue") { complete() }
                }
                if methods.contains(.recoveryCode) {
                    Button(usesRecoveryCode ? "Use the authenticator app" : "Lost your phone? Use a recovery code") {
                        usesRecoveryCode.toggle()
                        code = ""
                    }
                }
                Button("Cancel", role: .cancel) { Task { try? await latch.signOut() } }
            }
            if let problem { Text(problem).foregroundStyle(.red) }
        }
        .navigationTitle("Two-step verification")
        .task {
            guard let pending = await latch.pendingMFA else {
                expired = true
                return
            }
            ticket = pending.ticket
            methods = pending.methods
        }
    }

    private func complete() {
        guard let ticket, ticket.expiresAt > Date() else {
            expired = true
            return
        }
        Task {
            do throws(LatchError) {
                // Signs in as a sign-in without a second factor would: the navigation follows.
                if usesRecoveryCode {
                    try await latch.completeMFA(ticket: ticket, recoveryCode: code)
                } else {
                    try await latch.completeMFA(ticket: ticket, code: code)
                }
            } catch LatchError.invalidMFATicket {
                // Expired, or five wrong codes: the client reported signed out, so sign-in shows again.
            } catch {
                // A wrong code keeps the ticket: let the user type again.
                problem = ErrorText.message(for: error)
                code = ""
            }
        }
    }
}

/// Adding an authenticator app: the QR code of the enrolment's otpauth URI (and the secret, to type in by hand, or
/// the link, for an authenticator on this same phone), then a code the app shows, which turns two-step verification
/// on, then the recovery codes, shown this once.
struct EnrollTOTPView: View {
    let latch: LatchClient
    let enrollment: TOTPEnrollment
    let onFinished: () -> Void
    @State private var code = ""
    @State private var recoveryCodes: [String]?
    @State private var problem: String?

    var body: some View {
        NavigationStack {
            Form {
                if let recoveryCodes {
                    RecoveryCodesSection(codes: recoveryCodes)
                } else {
                    Section("Scan this with your authenticator app") {
                        if let qrCode = QRCode.image(for: enrollment.otpauthURI) {
                            qrCode.resizable().scaledToFit().frame(maxWidth: 240)
                        }
                        Link("Open in an authenticator app on this phone", destination: enrollment.otpauthURI)
                        // For typing in by hand. As secret as a password: never logged, gone with this screen.
                        Text(enrollment.secret).font(.body.monospaced()).textSelection(.enabled)
                    }
                    Section("Then enter the code it shows") {
                        TextField("6-digit code", text: $code)
                            .textContentType(.oneTimeCode)
                            .keyboardType(.numberPad)
                        Button("Turn on two-step verification") { activate() }
                    }
                }
                if let problem { Text(problem).foregroundStyle(.red) }
            }
            .navigationTitle("Add an authenticator")
            .toolbar {
                Button(recoveryCodes == nil ? "Cancel" : "I saved them", action: onFinished)
            }
            // Once the codes show, leaving takes the button that says they were saved.
            .interactiveDismissDisabled(recoveryCodes != nil)
        }
    }

    private func activate() {
        Task {
            do throws(LatchError) {
                // Every other session of the user ends; this one stays, its new access token stored by the client.
                recoveryCodes = try await latch.activateTOTP(factorID: enrollment.factorID, code: code)
                problem = nil
            } catch {
                // A wrong code keeps the enrolment; `factorNotFound` means it expired (10 minutes): start again.
                problem = ErrorText.message(for: error)
            }
        }
    }
}

/// Recovery codes, shown once: the server keeps only their hashes.
struct RecoveryCodesSection: View {
    let codes: [String]

    var body: some View {
        Section {
            ForEach(codes, id: \.self) { code in
                Text(code).font(.body.monospaced())
            }
            ShareLink("Save them", item: codes.joined(separator: "\n"))
        } header: {
            Text("Recovery codes")
        } footer: {
            Text("Each one signs you in once without your authenticator app. Keep them somewhere safe: they are not "
                + "shown again. New ones replace all of these.")
        }
        .textSelection(.enabled)
    }
}

/// The QR code of an otpauth URI, drawn with Core Image: an authenticator app scans it to learn the secret.
enum QRCode {
    static func image(for uri: URL) -> Image? {
        let filter = CIFilter.qrCodeGenerator()
        filter.message = Data(uri.absoluteString.utf8)
        filter.correctionLevel = "M"
        // A module per pixel is tiny: scale it up without smoothing so it stays sharp.
        guard let output = filter.outputImage?.transformed(by: CGAffineTransform(scaleX: 10, y: 10)),
              let cgImage = CIContext().createCGImage(output, from: output.extent) else { return nil }
        return Image(decorative: cgImage, scale: 1).interpolation(.none)
    }
}

struct SignInView: View {
    let navigation: NavigationModel
    let latch: LatchClient
    @State private var email = ""
    @State private var password = ""
    @State private var problem: String?
    @State private var signsInByMail = false
    @State private var passkeyPrompt = PasskeyPrompt()
    /// A nonce from the server, ready for Apple's sheet (whose `onRequest` cannot wait for one); nil while there is
    /// none, or for good when the server has Sign in with Apple off, and then there is no button.
    @State private var appleNonce: AppleSignInNonce?
    /// The nonce the sheet showing was asked with, which its credential goes to the server with.
    @State private var requestedAppleNonce: AppleSignInNonce?
    /// Counts the nonces spent: each change fetches a new one.
    @State private var appleNonceRound = 0

    var body: some View {
        Form {
            // `.username` lets AutoFill offer the account's passkeys above the keyboard (the request `.task` starts).
            TextField("Email", text: $email)
                .textContentType(.username)
            SecureField("Password", text: $password)
                .textContentType(.password)
            if let problem { Text(problem).foregroundStyle(.red) }
            Button("Sign in with a passkey") {
                Task { await signInWithPasskey(autoFill: false) }
            }
            if let appleNonce {
                // Apple's sheet signs the nonce's hash into its token; the server checks it against the nonce.
                SignInWithAppleButton(.signIn) { request in
                    requestedAppleNonce = appleNonce
                    appleNonce.configure(request)
                } onCompletion: { result in
                    signInWithApple(result)
                }
                .signInWithAppleButtonStyle(.black)
                .frame(height: 44)
            }
            Button("Sign in") {
                Task {
                    // On success the navigation goes home and resumes the link that sent the user here, if any; for
                    // an account with two-step verification (`.mfaRequired`) it shows the second-factor root first.
                    do throws(LatchError) {
                        try await latch.signIn(email: email, password: password)
                    } catch {
                        problem = ErrorText.message(for: error)
                    }
                }
            }
            Button("Create account") {
                Task {
                    do throws(LatchError) {
                        try await latch.signUp(email: email, password: password)
                        // Persists the address only: "check your mail" survives a relaunch, the password does not.
                        navigation.awaitingConfirmation(email: email)
                    } catch {
                        problem = ErrorText.message(for: error)
                    }
                }
            }
            Button("Forgot password") { Task { try? await latch.forgotPassword(email: email) } }
            Button("Sign in with a link instead") { signsInByMail = true }
        }
        .navigationTitle("Sign in")
        .navigationDestination(isPresented: $signsInByMail) { EmailSignInView(latch: latch, email: email) }
        // A link opened meanwhile (the sign-in mail's, say) replaces the stack: its screen takes over.
        .onChange(of: navigation.path) { signsInByMail = false }
        // After a relaunch with a sign-in by mail still pending, back to its screen (the code field), unless a
        // link the app was opened with shows already.
        .task { if await latch.pendingEmailSignInAddress != nil, navigation.path.isEmpty { signsInByMail = true } }
        // AutoFill's passkey suggestions while this screen shows; a tap on one signs in without another sheet.
        .task { await signInWithPasskey(autoFill: true) }
        .onDisappear { passkeyPrompt.cancel() }
        // A nonce for the Sign in with Apple button while this screen shows, and a new one after each use.
        .task(id: appleNonceRound) { await keepAppleNonce() }
    }

    /// Keeps a live nonce in `appleNonce`, renewed a minute before the server forgets it; none when the server has
    /// Sign in with Apple off (the button stays hidden).
    private func keepAppleNonce() async {
        while !Task.isCancelled {
            do throws(LatchError) {
                let nonce = try await latch.appleSignInNonce()
                appleNonce = nonce
                try? await Task.sleep(for: .seconds(max(nonce.expiresIn - 60, 30)))
            } catch LatchError.rejectedRequest(code: "not_found") {
                appleNonce = nil
                return
            } catch {
                // Offline, or limited: the button shows with the nonce it has (if still live), and this tries again.
                try? await Task.sleep(for: .seconds(30))
            }
        }
    }

    /// Apple's credential to the server with the nonce its request carried: signed in, the navigation goes home;
    /// for an account with two-step verification (`.mfaRequired`) it shows the second-factor root first.
    private func signInWithApple(_ result: Result<ASAuthorization, any Error>) {
        guard let nonce = requestedAppleNonce else { return }
        requestedAppleNonce = nil
        switch result {
        case .success(let authorization):
            guard let appleID = authorization.credential as? ASAuthorizationAppleIDCredential else { return }
            // Read here, where the platform's object is, so that only the Sendable copy goes to the client.
            let credential: AppleIDCredential
            do throws(LatchError) {
                credential = try AppleIDCredential(appleID)
            } catch {
                problem = ErrorText.message(for: error)
                return
            }
            // This nonce is spent by the try, whatever the answer: the next tap needs a new one (no button until then).
            appleNonce = nil
            appleNonceRound += 1
            Task {
                do throws(LatchError) {
                    try await latch.signInWithApple(credential, nonce: nonce)
                } catch {
                    problem = ErrorText.message(for: error)
                }
            }
        case .failure(let error as ASAuthorizationError) where error.code == .canceled:
            // The user closed the sheet: the nonce was not used and still works.
            break
        case .failure(let error):
            print("Sign in with Apple: \(error)")
            problem = "Sign in with Apple did not work. Try again, or sign in another way."
        }
    }

    /// A sign-in challenge, the platform's sheet (or AutoFill's suggestion), and the assertion to the server: signed
    /// in, the navigation goes home. No address is needed: the passkey says whose it is. The modal request replaces
    /// a waiting AutoFill one.
    private func signInWithPasskey(autoFill: Bool) async {
        do throws(LatchError) {
            let options = try await latch.passkeyAuthenticationOptions()
            guard let assertion = await passkeyPrompt.assertion(for: options, autoFill: autoFill) else { return }
            try await latch.signInWithPasskey(challengeID: options.challengeID, credential: assertion)
        } catch {
            // AutoFill asks nothing of the user until they pick a passkey: its failure to start is no news.
            if !autoFill { problem = ErrorText.message(for: error) }
        }
    }
}

/// Shows AuthenticationServices' passkey sheets (or AutoFill's suggestions) for the options LatchClient got, and
/// hands back their result in the server's JSON. One request at a time: a new one, or `cancel()`, ends the one
/// waiting (an AutoFill request waits until the user picks a passkey or the screen goes).
@MainActor
final class PasskeyPrompt: NSObject, ASAuthorizationControllerDelegate,
    ASAuthorizationControllerPresentationContextProviding {
    private var controller: ASAuthorizationController?
    private var completion: ((Result<any Sendable, any Error>) -> Void)?

    /// The new passkey, or nil when the user closed the sheet, the device has one of the account already
    /// (`excludeCredentials`), or the platform refused (the app is not associated with the RP ID, say: printed).
    func registration(for options: PasskeyRegistrationOptions) async -> RegistrationResponseJSON? {
        let request: ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
        do throws(LatchError) {
            request = try options.platformRequest()
        } catch {
            print("passkey registration options: \(error)")
            return nil
        }
        return await perform(request, autoFill: false) as? RegistrationResponseJSON
    }

    /// The assertion, or nil when the user closed the sheet, the request was replaced or cancelled, or the platform
    /// refused (printed).
    func assertion(for options: PasskeyAuthenticationOptions, autoFill: Bool = false) async
        -> AuthenticationResponseJSON? {
        let request: ASAuthorizationPlatformPublicKeyCredentialAssertionRequest
        do throws(LatchError) {
            request = try options.platformRequest()
        } catch {
            print("passkey authentication options: \(error)")
            return nil
        }
        return await perform(request, autoFill: autoFill) as? AuthenticationResponseJSON
    }

    /// Ends the request waiting, if any; its caller gets nil.
    func cancel() {
        guard let controller else { return }
        controller.cancel()
        finish(.failure(ASAuthorizationError(.canceled)), from: ObjectIdentifier(controller))
    }

    private func perform(_ request: ASAuthorizationRequest, autoFill: Bool) async -> (any Sendable)? {
        cancel()
        typealias Outcome = Result<any Sendable, any Error>
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            completion = { continuation.resume(returning: $0) }
            let controller = ASAuthorizationController(authorizationRequests: [request])
            controller.delegate = self
            controller.presentationContextProvider = self
            self.controller = controller
            if autoFill { controller.performAutoFillAssistedRequests() } else { controller.performRequests() }
        }
        switch result {
        case .success(let credential): return credential
        case .failure(let error as ASAuthorizationError) where error.code == .canceled: return nil
        case .failure(let error):
            print("passkey request: \(error)")
            return nil
        }
    }

    /// Hands `result` to the caller of the request of `controller`, unless that request was replaced or cancelled
    /// (its controller still calls its delegate, later).
    private func finish(_ result: Result<any Sendable, any Error>, from requester: ObjectIdentifier) {
        guard controller.map(ObjectIdentifier.init) == requester else { return }
        let completion = completion
        self.completion = nil
        controller = nil
        completion?(result)
    }

    nonisolated func authorizationController(controller: ASAuthorizationController,
                                             didCompleteWithAuthorization authorization: ASAuthorization) {
        // Read here, where the platform's objects are, so that only the Sendable JSON leaves this method.
        let result: Result<any Sendable, any Error>
        switch authorization.credential {
        case let registration as ASAuthorizationPlatformPublicKeyCredentialRegistration:
            do throws(LatchError) {
                result = .success(try RegistrationResponseJSON(registration))
            } catch {
                result = .failure(error)
            }
        case let assertion as ASAuthorizationPlatformPublicKeyCredentialAssertion:
            result = .success(AuthenticationResponseJSON(assertion))
        default:
            result = .failure(ASAuthorizationError(.unknown))
        }
        let id = ObjectIdentifier(controller)
        MainActor.assumeIsolated { finish(result, from: id) }
    }

    nonisolated func authorizationController(controller: ASAuthorizationController,
                                             didCompleteWithError error: any Error) {
        let id = ObjectIdentifier(controller)
        MainActor.assumeIsolated { finish(.failure(error), from: id) }
    }

    nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        MainActor.assumeIsolated {
            let windows = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }.flatMap(\.windows)
            return windows.first(where: \.isKeyWindow) ?? windows.first ?? ASPresentationAnchor()
        }
    }
}

/// Sign-in without a password. The mail brings a link and a code, which work only with the secret the client
/// kept on this device when it asked (for 15 minutes): the link opened here lands on this screen (`.signIn`) and
/// completes; the code is for a mail read elsewhere, typed here.
struct EmailSignInView: View {
    let latch: LatchClient
    /// The `.signIn` link the app was opened with, if that is how this screen was reached.
    var link: AppDeepLink?
    @State var email = ""
    @State private var code = ""
    @State private var sentTo: String?
    @State private var completing = false
    @State private var problem: String?

    var body: some View {
        Form {
            if completing { Text("Signing you in…") }
            TextField("Email", text: $email)
                .textContentType(.emailAddress)
                .keyboardType(.emailAddress)
                .textInputAutocapitalization(.never)
            Button(sentTo == nil ? "Email me a sign-in link" : "Send it again") {
                Task {
                    do throws(LatchError) {
                        // The same answer whether or not the address has an account; a second tap reuses the
                        // first one's secret, so the mail already on its way still works.
                        try await latch.requestEmailSignIn(email: email)
                        sentTo = email
                        problem = nil
                    } catch {
                        problem = ErrorText.message(for: error)
                    }
                }
            }
            if let sentTo {
                Section {
                    Text("If \(sentTo) has an account, we sent it a link. Open it on this device, or type the code "
                        + "from the mail here.")
                    TextField("8-digit code", text: $code)
                        .textContentType(.oneTimeCode)
                        .keyboardType(.numberPad)
                    Button("Sign in with the code") {
                        Task {
                            do throws(LatchError) {
                                // Signs in: the navigation follows the client's auth state home.
                                try await latch.completeEmailSignIn(email: sentTo, code: code)
                            } catch {
                                problem = ErrorText.message(for: error)
                            }
                        }
                    }
                }
            }
            if let problem { Text(problem).foregroundStyle(.red) }
        }
        .navigationTitle("Sign in with a link")
        .task {
            // The client keeps the pending attempt across launches: show its address and the code field again.
            if let pending = await latch.pendingEmailSignInAddress {
                email = pending
                sentTo = pending
            }
            guard let link else { return }
            completing = true
            do throws(LatchError) {
                // POST /v1/signin/email/verify with the link's token and this device's secret; on success the
                // navigation goes home (or to the link that waited for the sign-in).
                try await latch.handle(DeepLinkRoute(link))
            } catch {
                problem = ErrorText.message(for: error)
            }
            completing = false
        }
    }
}

struct AwaitingConfirmationView: View {
    let email: String
    let navigation: NavigationModel
    let latch: LatchClient

    @State private var code = ""
    @State private var problem: String?

    var body: some View {
        VStack(spacing: 16) {
            Text("We sent a link to \(email). Open it on this device, or type the code from the mail.")
            // The code works where the link cannot: the mail is on a laptop, or a scanner opened the link.
            TextField("8-digit code", text: $code)
                .textContentType(.oneTimeCode)
                .keyboardType(.numberPad)
            if let problem { Text(problem).foregroundStyle(.red) }
            Button("Confirm with the code") {
                Task {
                    do throws(LatchError) {
                        // Signs in: the navigation follows the client's auth state home.
                        try await latch.confirm(email: email, code: code)
                    } catch {
                        problem = ErrorText.message(for: error)
                    }
                }
            }
            Button("Send it again") { Task { try? await latch.resendConfirmation(email: email) } }
            Button("Use another address") { navigation.cancelSignUp() }
        }
        .padding()
    }
}

struct ConfirmView: View {
    let link: AppDeepLink
    let latch: LatchClient
    @State private var problem: String?

    var body: some View {
        Text(problem ?? "Confirming your address…")
            .padding()
            // POST /v1/confirm: confirming signs the user in, and the navigation goes home (or to the link that
            // waited for the sign-in).
            .task {
                do throws(LatchError) {
                    try await latch.handle(DeepLinkRoute(link))
                } catch {
                    problem = ErrorText.message(for: error)
                }
            }
    }
}

struct ResetPasswordView: View {
    let token: String
    let navigation: NavigationModel
    let latch: LatchClient
    @State private var password = ""
    /// The server answered `mfaRequired`: the account has two-step verification, so the link alone is not enough.
    @State private var asksForSecondFactor = false
    @State private var secondFactorCode = ""
    @State private var problem: String?

    var body: some View {
        Form {
            SecureField("New password", text: $password)
            if asksForSecondFactor {
                Section("Your account has two-step verification") {
                    TextField("Code from your authenticator app, or a recovery code", text: $secondFactorCode)
                        .textContentType(.oneTimeCode)
                        .textInputAutocapitalization(.characters)
                        .autocorrectionDisabled()
                }
            }
            if let problem { Text(problem).foregroundStyle(.red) }
            Button("Set password") {
                // The app's code is six digits; a recovery code has letters and dashes.
                let typed = secondFactorCode.trimmingCharacters(in: .whitespaces)
                let isAppCode = typed.allSatisfy(\.isNumber)
                let mfaCode = !typed.isEmpty && isAppCode ? typed : nil
                let recoveryCode = !typed.isEmpty && !isAppCode ? typed : nil
                Task {
                    do throws(LatchError) {
                        // Ends every session of the user (this device's too): back to sign-in with the new password.
                        try await latch.resetPassword(token: token, newPassword: password, mfaCode: mfaCode,
                                                      recoveryCode: recoveryCode)
                        navigation.path = []
                    } catch LatchError.mfaRequired {
                        // Nothing was spent: ask for the code, and the same link works again.
                        asksForSecondFactor = true
                        problem = ErrorText.message(for: .mfaRequired)
                    } catch {
                        problem = ErrorText.message(for: error)
                    }
                }
            }
        }
        .navigationTitle("New password")
    }
}

/// An operator's invitation: the invited person chooses the account's first password, which confirms the address
/// and signs in (the auth state change then shows home). The same screen as a reset, without a second factor: an
/// invited account has none.
struct AcceptInviteView: View {
    let token: String
    let navigation: NavigationModel
    let latch: LatchClient
    @State private var password = ""
    @State private var problem: String?

    var body: some View {
        Form {
            SecureField("Password", text: $password)
                .textContentType(.newPassword)
            if let problem { Text(problem).foregroundStyle(.red) }
            Button("Set password") {
                Task {
                    do throws(LatchError) {
                        // A refused password leaves the link usable: the user may simply try another one.
                        try await latch.acceptInvite(token: token, password: password)
                        navigation.path = []
                    } catch {
                        problem = ErrorText.message(for: error)
                    }
                }
            }
        }
        .navigationTitle("Accept invitation")
    }
}

/// What to tell the user for each refusal; the cases are the API's error codes.
enum ErrorText {
    static func message(for error: LatchError) -> String {
        switch error {
        case .invalidCredentials: "The email or password is incorrect."
        case .emailNotConfirmed: "Open the link we mailed you first."
        case .weakPassword: "Choose a longer or less common password."
        case .invalidEmail: "That is not an email address."
        case .rateLimited(let seconds): "Too many attempts; try again in \(seconds ?? 60) seconds."
        case .tokenExpired, .tokenUsed, .tokenSuperseded, .invalidToken:
            "This link no longer works; ask for a new mail."
        case .alreadyConfirmed: "Your address is confirmed already; sign in."
        case .invalidCode: "That code does not work. Check the newest mail, or send it again."
        case .noPendingEmailSignIn:
            "This sign-in was asked for on another device or too long ago. Ask for a new mail here."
        case .notASignInLink: "That is not a sign-in link."
        case .rejectedRequest(code: "not_found"): "This server does not offer that."
        case .reauthenticationRequired: "Confirm it's you first."
        case .invalidMFACode: "That code does not work. Type the code your authenticator app shows now, or an unused "
            + "recovery code."
        case .invalidMFATicket: "That took too long. Sign in again."
        case .mfaRequired: "Enter the code from your authenticator app, or one of your recovery codes."
        case .mfaNotEnabled: "Two-step verification is off for this account."
        case .factorNotFound: "This authenticator is no longer waiting to be added. Start again."
        case .emailTaken: "Another account uses that address now; nothing was changed."
        case .emailUnchanged: "That is your address already."
        case .sessionNotFound: "That device is signed out already."
        case .unsupportedLocale: "There is no mail in that language yet; your language was not changed."
        case .invalidPasskeyChallenge: "That took too long. Try the passkey again."
        case .passkeyRejected: "That passkey does not work here. Sign in another way, or use another passkey."
        case .passkeyNotFound: "That passkey was removed already."
        case .lastSignInMethod:
            "This is your only way to sign in. Set a password or add a passkey first."
        case .invalidNonce: "That took too long. Sign in with Apple again."
        case .invalidIDToken: "Apple's sign-in could not be checked. Try again, or sign in another way."
        case .providerEmailUnverified:
            "Apple has not confirmed this Apple ID's email address. Sign in another way."
        case .providerUnavailable:
            "Sign in with Apple is unavailable right now. Try again later, or sign in another way."
        case .identityNotFound: "That Apple ID was unlinked already."
        case .network: "No connection to the server."
        default: "Something went wrong (\(error.code))."
        }
    }
}
#endif
