import AuthCore
import Synchronization

/// Passkey sign-ins and refused ceremonies, for `/metrics`: a climb in refusals is someone replaying or forging
/// assertions (or a misconfigured origin), which the per-route counters cannot tell from other 400s.
public final class PasskeyMetrics: Sendable {
    private struct Counts {
        var signIns = 0
        var failures: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())

    public init() {}

    func recordSignIn() {
        counts.withLock { $0.signIns += 1 }
    }

    /// Counts a refused ceremony by its error code (a bounded set: AuthCore's codes; the WebAuthn check that
    /// failed is in the audit row).
    func recordFailure(_ error: AuthError) {
        counts.withLock { $0.failures[error.code, default: 0] += 1 }
    }

    /// `latch_passkey_signins_total` and `latch_passkey_failures_total{reason}`.
    public func families() -> [MetricFamily] {
        let snapshot = counts.withLock { $0 }
        return [
            .single(name: "latch_passkey_signins_total", help: "Sign-ins completed with a passkey.", kind: .counter,
                    value: Double(snapshot.signIns)),
            MetricFamily(
                name: "latch_passkey_failures_total", help: "Refused passkey ceremonies, by error code.",
                kind: .counter,
                samples: snapshot.failures.sorted { $0.key < $1.key }
                    .map { MetricSample(labels: ["reason": $0.key], value: Double($0.value)) }),
        ]
    }
}
