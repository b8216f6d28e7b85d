import AuthCore
import Synchronization

/// Sign-ins completed by one ceremony and its refusals by error code, for `/metrics`: a climb in refusals is
/// someone guessing codes, replaying or forging assertions or tokens (or a misconfigured origin or client id),
/// which the per-route counters cannot tell from other 4xx answers. One instance per ceremony: `secondFactor`,
/// `passkey`, `provider`.
public final class CeremonyMetrics: Sendable {
    private struct Counts {
        var signIns = 0
        var failures: [String: Int] = [:]
    }

    private let signInsName: String
    private let failuresName: String
    private let signInsHelp: String
    private let failuresHelp: String
    private let counts = Mutex(Counts())

    /// - Parameter prefix: the families are `<prefix>_signins_total` and `<prefix>_failures_total{reason}`.
    init(prefix: String, signInsHelp: String, failuresHelp: String) {
        signInsName = prefix + "_signins_total"
        failuresName = prefix + "_failures_total"
        self.signInsHelp = signInsHelp
        self.failuresHelp = failuresHelp
    }

    /// `latch_mfa_*`: the second step of a sign-in.
    public static func secondFactor() -> CeremonyMetrics {
        CeremonyMetrics(prefix: "latch_mfa", signInsHelp: "Sign-ins completed with a second factor.",
                        failuresHelp: "Refused second steps of a sign-in, by error code.")
    }

    /// `latch_passkey_*`: passkey sign-ins and every refused passkey ceremony.
    public static func passkey() -> CeremonyMetrics {
        CeremonyMetrics(prefix: "latch_passkey", signInsHelp: "Sign-ins completed with a passkey.",
                        failuresHelp: "Refused passkey ceremonies, by error code.")
    }

    /// `latch_provider_*`: sign-ins with a provider's id_token (Sign in with Apple).
    public static func provider() -> CeremonyMetrics {
        CeremonyMetrics(prefix: "latch_provider", signInsHelp: "Sign-ins completed with a provider's id_token.",
                        failuresHelp: "Refused provider sign-ins, by error code.")
    }

    func recordSignIn() {
        counts.withLock { $0.signIns += 1 }
    }

    /// Counts a refusal by its error code (a bounded set: AuthCore's codes; which check failed is in the audit
    /// row).
    func recordFailure(_ error: AuthError) {
        counts.withLock { $0.failures[error.code, default: 0] += 1 }
    }

    public func families() -> [MetricFamily] {
        let snapshot = counts.withLock { $0 }
        return [
            .single(name: signInsName, help: signInsHelp, kind: .counter, value: Double(snapshot.signIns)),
            MetricFamily(
                name: failuresName, help: failuresHelp, kind: .counter,
                samples: snapshot.failures.sorted { $0.key < $1.key }
                    .map { MetricSample(labels: ["reason": $0.key], value: Double($0.value)) }),
        ]
    }
}
