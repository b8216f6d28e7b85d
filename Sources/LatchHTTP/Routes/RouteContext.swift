import AuthCore
import HTTPServer

/// What every route family shares: the service and the client resolver. Errors are not caught here: a route
/// throws, and the server answers (`HTTPRouteMatch.respond`, `LatchAPI.unexpectedErrorHandler`).
struct RouteContext: Sendable {
    let auth: AuthService
    let clients: ClientInfoResolver
    /// Second-factor sign-ins and failures, which `/metrics` reports.
    let secondFactorMetrics: CeremonyMetrics
    /// Passkey sign-ins and refused ceremonies, which `/metrics` reports.
    let passkeyMetrics: CeremonyMetrics
    /// Provider sign-ins (Sign in with Apple) and their refusals, which `/metrics` reports.
    let providerMetrics: CeremonyMetrics

    var bearer: BearerAuthenticator { BearerAuthenticator(auth: auth) }
}
