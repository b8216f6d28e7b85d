/// `{"status":"…"}`: the body of answers that have nothing else to say.
struct StatusBody: Encodable, Equatable {
    let status: String

    static let confirmationSent = StatusBody(status: "confirmation_sent")
    static let resetSent = StatusBody(status: "reset_sent")
    static let passwordChanged = StatusBody(status: "password_changed")
    static let signInSent = StatusBody(status: "signin_sent")
    static let codeSent = StatusBody(status: "code_sent")
    static let ok = StatusBody(status: "ok")
    static let ready = StatusBody(status: "ready")
}
