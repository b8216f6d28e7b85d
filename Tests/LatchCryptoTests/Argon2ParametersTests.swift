import LatchCrypto
import Testing

@Suite struct Argon2ParametersTests {
    @Test func owaspDefaults() {
        #expect(Argon2Parameters.owasp.memoryKiB == 19456)
        #expect(Argon2Parameters.owasp.iterations == 2)
        #expect(Argon2Parameters.owasp.parallelism == 1)
    }

    @Test func acceptsTheBoundaries() throws {
        let smallest = try Argon2Parameters(memoryKiB: 32, iterations: 1, parallelism: 4)
        #expect(smallest.memoryKiB == 32)
    }

    @Test func rejectsMemoryBelowEightKiBPerLane() {
        #expect(throws: Argon2ParameterError.memoryTooLow(memoryKiB: 31, minimumKiB: 32)) {
            try Argon2Parameters(memoryKiB: 31, iterations: 1, parallelism: 4)
        }
    }

    @Test func rejectsOtherOutOfRangeValues() {
        #expect(throws: Argon2ParameterError.iterationsOutOfRange(0)) {
            try Argon2Parameters(memoryKiB: 64, iterations: 0, parallelism: 1)
        }
        #expect(throws: Argon2ParameterError.parallelismOutOfRange(0)) {
            try Argon2Parameters(memoryKiB: 64, iterations: 1, parallelism: 0)
        }
        #expect(throws: Argon2ParameterError.parallelismOutOfRange(256)) {
            try Argon2Parameters(memoryKiB: 1 << 20, iterations: 1, parallelism: 256)
        }
        #expect(throws: Argon2ParameterError.self) {
            try Argon2Parameters(memoryKiB: Argon2Parameters.maximumMemoryKiB + 1, iterations: 1, parallelism: 1)
        }
    }
}
