/// `{"status":"…"}`: the body of the enumeration-safe 202 answers.
struct StatusBody: Encodable, Equatable {
    let status: String

    static let confirmationSent = StatusBody(status: "confirmation_sent")
    static let resetSent = StatusBody(status: "reset_sent")
    static let ok = StatusBody(status: "ok")
    static let ready = StatusBody(status: "ready")
}
