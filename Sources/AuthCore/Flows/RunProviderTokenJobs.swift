import Foundation

extension AuthService {
    /// How long a claimed provider job is the claimer's: a worker killed mid-call gives it back after this.
    static let providerJobLease: TimeInterval = 60
    /// Tries of one job before it gives up: with `providerJobDelays` about four days of tries.
    static let providerJobAttempts = 12
    /// The waits between tries: the Standard Webhooks schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h,
    /// then daily), so a short outage costs seconds and a long one is still covered.
    static let providerJobDelays: [TimeInterval] = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]

    /// The wait before the next try of a job that failed for the `attempts`-th time.
    static func providerJobDelay(afterAttempts attempts: Int) -> TimeInterval {
        providerJobDelays[min(max(attempts - 1, 0), providerJobDelays.count - 1)]
    }

    /// Runs the due provider token jobs (latchd's `provider-tokens` job, on a beat): exchanges sign-ins'
    /// authorization codes for refresh tokens, held sealed for the account's deletion, and revokes them once it
    /// is deleted. Durable: each job is a row claimed with a lease, so a restart or a second instance picks up
    /// what was not finished, and a call that failed for a while (the provider down) is tried again later.
    /// - Returns: how many jobs were handled.
    public func runProviderTokenJobs(limit: Int = 20, isStopping: () -> Bool = { false }) throws -> Int {
        let now = ports.clock.now()
        let jobs = try ports.store.claimProviderJobs(now: now, leaseUntil: now.addingTimeInterval(Self.providerJobLease),
                                                     limit: limit)
        for job in jobs {
            if isStopping() { break }
            try ports.store.finishProviderJob(id: job.id, outcome: outcome(of: job), at: ports.clock.now())
        }
        return jobs.count
    }

    /// One call to the provider. The token never leaves this function except sealed (or toward the provider).
    private func outcome(of job: ProviderJob) throws -> ProviderJobOutcome {
        guard let provider = identityProvider(named: job.provider), provider.tokenRevocation != nil else {
            return try gaveUp(job, error: "the provider \(job.provider) is not configured to revoke tokens")
        }
        let token: String
        do { token = try ports.providerTokens.open(job.sealedToken, jobID: job.id) } catch {
            return try gaveUp(job, error: "the sealed token does not open (another LATCH_SECRET_KEY?)")
        }
        do {
            switch job.action {
            case .exchange:
                let refresh = try ports.providerTokens.exchange(code: token, clientID: job.clientID, provider: provider)
                return .exchanged(sealedRefreshToken: try ports.providerTokens.seal(refresh, jobID: job.id))
            case .revoke:
                try ports.providerTokens.revoke(refreshToken: token, clientID: job.clientID, provider: provider)
                try ports.store.record(event(.providerTokenRevocation, user: nil, ip: nil, detail: [
                    "provider": job.provider, "job_id": job.id.description, "outcome": "revoked",
                ]))
                return .revoked
            }
        } catch let error as ProviderCallError {
            switch error {
            case .temporary(let text) where job.attempts + 1 < Self.providerJobAttempts:
                return .retry(at: ports.clock.now().addingTimeInterval(
                    Self.providerJobDelay(afterAttempts: job.attempts + 1)), error: text)
            case .temporary(let text), .permanent(let text):
                return try gaveUp(job, error: text)
            }
        }
    }

    /// A job that will never succeed: its token is forgotten, and a revocation that gave up is audited.
    private func gaveUp(_ job: ProviderJob, error: String) throws -> ProviderJobOutcome {
        if job.action == .revoke {
            try ports.store.record(event(.providerTokenRevocation, user: nil, ip: nil, detail: [
                "provider": job.provider, "job_id": job.id.description, "outcome": "failed",
            ]))
        }
        return .failed(error: error)
    }
}
