// An example iOS/macOS app wired to DeepLinkRouting. Not a package target: copy this file into an app target
// that depends on the DeepLinkRouting library product, register the `myapp` URL scheme and the associated domain
// `applinks:links.example.com`, and replace `ExampleSession` with calls to the Latch HTTP API.
//
// One file on purpose, so it can be copied whole; in a real app each view gets its own file.
#if canImport(SwiftUI)
import DeepLinkRouting
import SwiftUI

@main
struct LatchExampleApp: App {
    /// Where the navigation snapshot lives between launches; it holds no token and no password.
    private static let restorationKey = "latch.navigation"

    @State private var navigation: NavigationModel
    @State private var session = ExampleSession()

    init() {
        let configuration = DeepLinkConfiguration(appScheme: "myapp", linkBase: Self.linkBase)
        _navigation = State(initialValue: NavigationModel(
            parser: DeepLinkParser(configuration: configuration),
            restoring: UserDefaults.standard.data(forKey: Self.restorationKey),
            onRejectedLink: { reason in print("ignored deep link: \(reason.code) (\(reason))") }
        ))
    }

    /// The same value the server reads from LATCH_LINK_BASE.
    private static var linkBase: URL {
        guard let url = URL(string: "https://links.example.com") else { preconditionFailure("literal URL") }
        return url
    }

    var body: some Scene {
        WindowGroup {
            InitialView(navigation: navigation, session: session)
                // Custom-scheme links and universal links both arrive here.
                .onOpenURL { url in navigation.open(url: url) }
                // Undetermined until the stored session is checked: the root shows nothing meanwhile.
                .task { navigation.authStateDetermined(signedIn: await session.restore()) }
                .onChange(of: navigation.state) {
                    UserDefaults.standard.set(navigation.restorationData(), forKey: Self.restorationKey)
                }
        }
    }
}

/// The root follows the auth state; the stack above it is the model's typed `[AppDeepLink]` path.
struct InitialView: View {
    @Bindable var navigation: NavigationModel
    let session: ExampleSession

    var body: some View {
        switch navigation.root {
        case .launching:
            // Nothing yet: showing sign-in here would flash it at users who are signed in.
            Color.clear
        case .home, .signIn, .awaitingConfirmation:
            NavigationStack(path: $navigation.path) {
                rootScreen
                    .navigationDestination(for: AppDeepLink.self) { link in
                        DestinationView(link: link, navigation: navigation, session: session)
                    }
            }
        }
    }

    @ViewBuilder private var rootScreen: some View {
        switch navigation.root {
        case .home:
            HomeView()
        case .awaitingConfirmation(let email):
            AwaitingConfirmationView(email: email, navigation: navigation)
        case .signIn, .launching:
            SignInView(navigation: navigation, session: session)
        }
    }
}

/// One screen per pushed destination; every case is reachable by a link as well as by tapping.
struct DestinationView: View {
    let link: AppDeepLink
    let navigation: NavigationModel
    let session: ExampleSession

    var body: some View {
        switch link {
        case .home:
            HomeView()
        case .profile:
            ProfileView(navigation: navigation, session: session)
        case .itemList:
            List(1...20, id: \.self) { number in
                NavigationLink("Item \(number)", value: AppDeepLink.itemDetail(id: String(number)))
            }
            .navigationTitle("Items")
        case .itemDetail(let id):
            Text("Item \(id)").navigationTitle("Item \(id)")
        case .confirmAuth(let token):
            ConfirmView(token: token, navigation: navigation, session: session)
        case .resetPassword(let token):
            ResetPasswordView(token: token, navigation: navigation, session: session)
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
    let navigation: NavigationModel
    let session: ExampleSession

    var body: some View {
        Button("Sign out") {
            Task {
                await session.signOut()
                // Empties the stack: nothing of this session is reachable by Back.
                navigation.signedOut()
            }
        }
        .navigationTitle("Profile")
    }
}

struct SignInView: View {
    let navigation: NavigationModel
    let session: ExampleSession
    @State private var email = ""
    @State private var password = ""

    var body: some View {
        Form {
            TextField("Email", text: $email)
            SecureField("Password", text: $password)
            Button("Sign in") {
                Task {
                    // Resumes the link that sent the user here, if any.
                    if await session.signIn(email: email, password: password) { navigation.signedIn() }
                }
            }
            Button("Create account") {
                Task {
                    await session.signUp(email: email, password: password)
                    // Persists the address only: "check your mail" survives a relaunch, the password does not.
                    navigation.awaitingConfirmation(email: email)
                }
            }
        }
        .navigationTitle("Sign in")
    }
}

struct AwaitingConfirmationView: View {
    let email: String
    let navigation: NavigationModel

    var body: some View {
        VStack(spacing: 16) {
            Text("We sent a link to \(email). Open it on this device to finish.")
            Button("Use another address") { navigation.cancelSignUp() }
        }
        .padding()
    }
}

struct ConfirmView: View {
    let token: String
    let navigation: NavigationModel
    let session: ExampleSession
    @State private var failed = false

    var body: some View {
        VStack(spacing: 16) {
            Text(failed ? "This link has expired or was replaced by a newer one." : "Confirming your address…")
        }
        // POST /v1/confirm: confirming signs the user in.
        .task {
            if await session.confirm(token: token) { navigation.signedIn() } else { failed = true }
        }
    }
}

struct ResetPasswordView: View {
    let token: String
    let navigation: NavigationModel
    let session: ExampleSession
    @State private var password = ""

    var body: some View {
        Form {
            SecureField("New password", text: $password)
            Button("Set password") {
                Task {
                    // POST /v1/password/reset revokes every session: back to sign-in with the new password.
                    if await session.resetPassword(token: token, password: password) { navigation.path = [] }
                }
            }
        }
        .navigationTitle("New password")
    }
}

/// Stands in for the Latch HTTP API and the keychain; replace each method with the real call.
@MainActor
final class ExampleSession {
    private var signedIn = false

    func restore() async -> Bool { signedIn }
    func signIn(email: String, password: String) async -> Bool { signedIn = !email.isEmpty; return signedIn }
    func signUp(email: String, password: String) async {}
    func confirm(token: String) async -> Bool { signedIn = true; return true }
    func resetPassword(token: String, password: String) async -> Bool { password.count >= 8 }
    func signOut() async { signedIn = false }
}
#endif
