import Foundation
import Testing
import TestKit

/// `freePort()` must stay out of the kernel's ephemeral range: a port from it can be taken by the tests' own
/// outgoing connections before the server meant for it binds ("address already in use" in a sink's start).
struct FreePortTests {
    @Test func portsComeFromBelowTheEphemeralRangeAndAreNeverHandedOutTwice() throws {
        let text = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        let ephemeralLow = try #require(text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) })
        try #require(ephemeralLow > 16000, "this machine's ephemeral range leaves no room below it")
        let ports = try (0..<500).map { _ in try freePort() }
        #expect(ports.allSatisfy { $0 >= 1024 && $0 < ephemeralLow })
        #expect(Set(ports).count == ports.count)
    }
}
