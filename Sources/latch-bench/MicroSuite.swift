import AuthCore
import Foundation
import LatchCrypto
import LatchHTTP
import PostgresClient
import Synchronization

/// The micro benchmarks of `latch-bench micro`: the per-request building blocks of latchd, each in isolation, so a
/// change in an endpoint's req/s can be traced to the piece that moved.
struct MicroSuite {
    /// The bench cluster; without it the pooled round trip is skipped.
    let databaseURL: String?
    /// Repetitions per benchmark (after a warm-up run); the median is reported.
    var runs = 7

    /// Runs the benchmarks whose id is in `only` (all when nil), in a fixed order. `select1` needs `databaseURL`.
    func run(only: Set<String>? = nil) throws -> [MicroResult] {
        var entries: [(id: String, measure: () throws -> MicroResult)] = []
        for benchmark in cryptoBenchmarks() + (try jwsBenchmarks()) + (try jsonBenchmarks()) {
            entries.append((benchmark.id, benchmark.measure))
        }
        if let databaseURL {
            entries.append(("select1", { try poolRoundTrip(url: databaseURL) }))
        }
        entries.append(("argon2", argon2Benchmark().measure))
        entries.append(("argon2-parallel", argon2Parallel))
        return try entries.filter { only?.contains($0.id) ?? true }.map { try $0.measure() }
    }

    /// Each sign-in, confirm and refresh makes two tokens and hashes each; every bearer request hashes one.
    private func cryptoBenchmarks() -> [MicroBenchmark] {
        let generator = OpenSSLTokenGenerator()
        let token = generator.makeToken()
        return [
            MicroBenchmark(
                id: "token", name: "token generation (32 random bytes, base64url)", iterations: 20_000, runs: runs
            ) {
                generator.makeToken().utf8.count
            },
            MicroBenchmark(id: "sha256", name: "SHA-256 of a token (43 bytes)", iterations: 50_000, runs: runs) {
                Int(SHA256.hash(token)[0])
            },
        ]
    }

    /// The access token's cost: every sign-in, confirm and refresh signs one; every bearer request verifies one
    /// (header match, ES256 signature check, claims decoded) before its one query. Keys as latchd keeps them:
    /// read once, held in memory.
    private func jwsBenchmarks() throws -> [MicroBenchmark] {
        let sealer = SigningKeySealer(secret: try ServerSecret(bytes: Data(try SecureRandom.bytes(count: 32))))
        let keys = SigningKeys(store: BenchSigningKeyStore(), factory: ES256KeyFactory(sealer: sealer),
                               clock: SystemClock(), schedule: SigningKeySchedule(jwksMaxAge: 600, accessTokenTTL: 900))
        let tokens = ES256AccessTokens(keys: keys, sealer: sealer)
        let now = Date()
        let claims = AccessTokenClaims(
            issuer: "https://links.example.com", audience: "latch", subject: UserID(), sessionID: SessionID(),
            issuedAt: now, expiresAt: now.addingTimeInterval(900), tokenID: OpenSSLTokenGenerator().makeToken(),
            email: "someone@example.com", emailVerified: true)
        let token = try tokens.sign(claims)
        // A first verify checks the signature; latchd then keeps the answer for that token's text, so every later
        // request with it costs a lookup. The first-time figure needs a token never seen: one each.
        let verifyIterations = 500
        var fresh: [String] = []
        for _ in 0..<(verifyIterations * (runs + 1)) {
            var unique = claims
            unique.tokenID = OpenSSLTokenGenerator().makeToken()
            fresh.append(try tokens.sign(unique))
        }
        var next = 0
        return [
            MicroBenchmark(
                id: "jws-sign", name: "ES256 JWS sign, access token (\(token.utf8.count) B)", iterations: 2_000, runs: runs
            ) {
                try tokens.sign(claims).utf8.count
            },
            MicroBenchmark(
                id: "jws-verify", name: "ES256 JWS verify, a token's first time", iterations: verifyIterations, runs: runs
            ) {
                defer { next += 1 }
                return try tokens.verify(fresh[next]).tokenID.utf8.count
            },
            MicroBenchmark(id: "jws-verify-seen", name: "ES256 JWS verify, a token seen before", iterations: 2_000,
                           runs: runs) {
                try tokens.verify(token).tokenID.utf8.count
            },
        ]
    }

    /// Configured like LatchHTTP's `APIJSON` encoder (sorted keys, ISO 8601 dates), built once and reused.
    private func jsonBenchmarks() throws -> [MicroBenchmark] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let session = Self.sampleSession()
        let encoded = try encoder.encode(session)
        return [
            MicroBenchmark(
                id: "json-encode", name: "JSON encode SessionResponse (\(encoded.count) B)", iterations: 10_000, runs: runs
            ) {
                try encoder.encode(session).count
            },
            MicroBenchmark(id: "json-decode", name: "JSON decode SessionResponse", iterations: 10_000, runs: runs) {
                try decoder.decode(SessionResponse.self, from: encoded).accessToken.utf8.count
            },
        ]
    }

    /// `SELECT 1` through `PostgresPool` (prepared, cached statement; loopback TCP): the floor under every
    /// database-backed request.
    private func poolRoundTrip(url: String) throws -> MicroResult {
        let pool = PostgresPool(url: url, maxConnections: 1)
        defer { pool.close() }
        let benchmark = MicroBenchmark(
            id: "select1", name: "pooled query round trip (SELECT 1)", iterations: 2_000, runs: runs
        ) {
            try pool.query("SELECT 1").scalar(Int.self) ?? 0
        }
        return try benchmark.measure()
    }

    /// One hash per run, many runs: the median is the per-hash time the sign-in bound is computed from.
    private func argon2Benchmark() -> MicroBenchmark {
        let hasher = Argon2idHasher(parameters: .owasp)
        let parameters = hasher.parameters
        let name = "Argon2id hash (m=\(parameters.memoryKiB) t=\(parameters.iterations) p=\(parameters.parallelism))"
        return MicroBenchmark(id: "argon2", name: name, iterations: 1, runs: 41) {
            try hasher.hash("correct horse battery staple").utf8.count
        }
    }

    /// `cores` hashes at once, as latchd's hash workers run them under sign-in load: memory bandwidth and caches are
    /// shared, so this per-hash wall time (total time / hashes) is the bound the machine can really reach.
    private func argon2Parallel() throws -> MicroResult {
        let hasher = Argon2idHasher(parameters: .owasp)
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let hashesPerThread = 4
        let benchmark = MicroBenchmark(
            id: "argon2-parallel", name: "Argon2id, \(threads) hashes at a time (wall time / hash)",
            iterations: 1, runs: 7
        ) {
            let failures = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                for _ in 0..<hashesPerThread where (try? hasher.hash("correct horse battery staple")) == nil {
                    failures.withLock { $0 += 1 }
                }
            }
            guard failures.withLock({ $0 }) == 0 else { throw BenchError.failed("Argon2id hashing failed") }
            return threads * hashesPerThread
        }
        let result = try benchmark.measure()
        let perHash = Double(threads * hashesPerThread)
        return MicroResult(
            id: result.id, name: result.name, nsPerOp: result.nsPerOp / perHash, minNsPerOp: result.minNsPerOp / perHash,
            maxNsPerOp: result.maxNsPerOp / perHash, runs: result.runs, iterationsPerRun: threads * hashesPerThread,
            checksum: result.checksum)
    }

    private static func sampleSession() -> SessionResponse {
        let generator = OpenSSLTokenGenerator()
        let now = Date(timeIntervalSince1970: (Date().timeIntervalSince1970).rounded())
        let user = User(id: UserID(), email: "someone@example.com", confirmedAt: now, createdAt: now)
        return SessionResponse(IssuedSession(
            accessToken: generator.makeToken(), refreshToken: generator.makeToken(),
            accessTokenExpiresAt: now.addingTimeInterval(900), refreshTokenExpiresAt: now.addingTimeInterval(30 * 86_400),
            user: user))
    }
}
