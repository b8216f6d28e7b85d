// DeepLinkRouting: the one link contract shared by the Latch server and the mobile app.
//
// Both sides build a `DeepLinkConfiguration` from the same two values: the app's custom scheme (`myapp`) and the
// base of its universal links (`https://links.example.com`, `LATCH_LINK_BASE`).
//
// - The server prints: `DeepLinkPrinter(configuration:).universalURL(for: .confirmAuth(token: t))` goes into the
//   confirmation mail (mail clients strip custom schemes); the landing page behind it offers
//   `customSchemeURL(for:)` as "Open in app". Its tests read links back with `DeepLinkParser.parse(_:)`.
// - The app parses: every URL it is opened with goes to `NavigationModel.open(url:)` (or the pure
//   `NavigationState.open(url:)`), which turns it into a root and a typed `[AppDeepLink]` path for
//   `NavigationStack(path:)`, applying the auth rules (sign-in first, then resume) and falling back to the root,
//   with a `DeepLinkRejection`, for anything it does not recognise.
//
// Because the printer and the parser share `LinkGrammar`, parse(print(route)) == route for every route, in both
// URL forms. Foundation (and Observation for the model) only, so it builds on Linux and Apple platforms.
