import AuthCore
import Synchronization

/// Second-factor sign-ins and their failures, for `/metrics`: a climb in wrong codes is someone holding
/// passwords and guessing codes, which the per-route counters cannot tell from typos at other routes.
public final class SecondFactorMetrics: Sendable {
    private struct Counts {
        var signIns = 0
        var failures: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())

    public init() {}

    func recordSignIn() {
        counts.withLock { $0.signIns += 1 }
    }

    /// Counts a refused second step by its error code (a bounded set: AuthCore's codes).
    func recordFailure(_ error: AuthError) {
        counts.withLock { $0.failures[error.code, default: 0] += 1 }
    }

    /// `latch_mfa_signins_total` and `latch_mfa_failures_total{reason}`.
    public func families() -> [MetricFamily] {
        let snapshot = counts.withLock { $0 }
        return [
            .single(name: "latch_mfa_signins_total", help: "Sign-ins completed with a second factor.", kind: .counter,
                    value: Double(snapshot.signIns)),
            MetricFamily(
                name: "latch_mfa_failures_total", help: "Refused second steps of a sign-in, by error code.",
                kind: .counter,
                samples: snapshot.failures.sorted { $0.key < $1.key }
                    .map { MetricSample(labels: ["reason": $0.key], value: Double($0.value)) }),
        ]
    }
}
