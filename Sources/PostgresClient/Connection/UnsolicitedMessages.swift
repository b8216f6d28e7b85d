import CLibPQ

/// What the server said outside any statement, as libpq's notice receiver reports it.
///
/// libpq hands an error that arrives while the connection is idle to the notice receiver instead of failing the
/// connection: it is typically the server's last word (`FATAL: terminating connection due to administrator
/// command`) with the socket's EOF still in flight. Noting it lets `LibPQSession.isAliveWhenIdle` call such a
/// connection dead before a statement is sent on it. Only touched by libpq calls made under the session's lock.
final class UnsolicitedMessages {
    private(set) var sessionEnded = false

    func received(_ result: OpaquePointer) {
        // `V` is the severity never translated (servers since 9.6), `S` the possibly localized one.
        guard let severity = PQresultErrorField(result, Int32(UInt8(ascii: "V")))
            ?? PQresultErrorField(result, Int32(UInt8(ascii: "S")))
        else { return }
        let text = String(cString: severity)
        if text == "FATAL" || text == "PANIC" { sessionEnded = true }
    }
}
