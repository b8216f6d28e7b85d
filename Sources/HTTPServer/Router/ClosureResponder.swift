/// Sends every request to one handler, inline: for servers that need no routing.
struct ClosureResponder: HTTPResponder {
    let handler: HTTPHandler

    func resolve(_ request: HTTPRequest) -> HTTPRouteMatch {
        HTTPRouteMatch(handler: handler)
    }
}
