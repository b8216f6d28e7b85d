import Foundation
import Testing
@testable import LatchConfig

/// `docker-compose.yml` and the `Dockerfile`, checked without Docker: the compose file is YAML with the three
/// services and their healthchecks, latchd is configured only with variables latchd knows, and the image ships the
/// migrations. Parsed with PyYAML (python3, the project venv or the system's) when one is installed, and always
/// with a structural line reader, which must agree with it.
@Suite struct DockerComposeTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// What the checks need from the compose file.
    struct Compose: Equatable {
        var services: [String: Service] = [:]
    }

    struct Service: Equatable {
        var hasHealthcheck = false
        var environment: [String] = []
        var dependsOn: [String] = []
    }

    static func composeText() throws -> String {
        try String(contentsOf: root.appendingPathComponent("docker-compose.yml"), encoding: .utf8)
    }

    @Test func composeFileHasTheThreeServicesWithHealthchecks() throws {
        let compose = LineReader.read(try Self.composeText())
        for name in ["postgres", "mail", "latchd"] {
            let service = try #require(compose.services[name], "service \(name) missing")
            #expect(service.hasHealthcheck, "service \(name) has no healthcheck")
        }
        #expect(Set(compose.services["latchd"]?.dependsOn ?? []) == ["postgres", "mail"])
    }

    @Test func latchdIsConfiguredOnlyWithKnownVariables() throws {
        let environment = try #require(LineReader.read(try Self.composeText()).services["latchd"]).environment
        let known = Set(ConfigurationLoader.variables.map(\.name))
        #expect(environment.contains("DATABASE_URL"))
        #expect(environment.contains("LATCH_LINK_BASE"))
        let configured = environment.filter { $0 == "DATABASE_URL" || $0.hasPrefix("LATCH_") }
        #expect(configured.count == environment.count, "unexpected variables: \(environment)")
        let unknown = configured.filter { !known.contains($0) }
        #expect(unknown.isEmpty, "latchd does not know: \(unknown)")
    }

    @Test func pyYAMLParsesTheFileAndAgreesWithTheLineReader() throws {
        let text = try Self.composeText()
        guard let parsed = try PyYAML.load(Self.root.appendingPathComponent("docker-compose.yml")) else {
            // No PyYAML on this machine: the structural line reader above is the check.
            return
        }
        let services = try #require(parsed["services"] as? [String: Any], "no services mapping")
        var compose = Compose()
        for (name, value) in services {
            let service = value as? [String: Any] ?? [:]
            let environment: [String] = switch service["environment"] {
            case let map as [String: Any]: Array(map.keys)
            case let list as [String]: list.map { String($0.prefix { $0 != "=" }) }
            default: []
            }
            let dependsOn: [String] = switch service["depends_on"] {
            case let map as [String: Any]: Array(map.keys)
            case let list as [String]: list
            default: []
            }
            let healthcheck = service["healthcheck"] as? [String: Any]
            compose.services[name] = Service(hasHealthcheck: healthcheck?["test"] != nil,
                                             environment: environment.sorted(), dependsOn: dependsOn.sorted())
        }
        var lines = LineReader.read(text)
        for name in lines.services.keys {
            lines.services[name]?.environment.sort()
            lines.services[name]?.dependsOn.sort()
        }
        #expect(compose == lines)
    }

    /// Prometheus scrapes latchd's metrics listener over the compose network; the host never reaches it, since
    /// metrics are kept off anything the public can reach.
    @Test func metricsAreScrapedOnTheComposeNetworkAndNotPublished() throws {
        let text = try Self.composeText()
        let compose = LineReader.read(text)
        #expect(compose.services["latchd"]?.environment.contains("LATCH_METRICS_LISTEN") == true)
        #expect(text.contains("LATCH_METRICS_LISTEN: 0.0.0.0:9464"))
        #expect(compose.services["prometheus"]?.dependsOn == ["latchd"])
        #expect(compose.services["prometheus"]?.hasHealthcheck == true)
        let published = LineReader.entries(of: "ports", in: "latchd", text)
        #expect(published == ["8080:8080"])
        let prometheus = try String(contentsOf: Self.root.appendingPathComponent("docker/prometheus.yml"), encoding: .utf8)
        #expect(prometheus.contains(#"targets: ["latchd:9464"]"#))
        #expect(text.contains("./docker/prometheus.yml:/etc/prometheus/prometheus.yml"))
    }

    /// The cluster profile: three latchd replicas through PgBouncer in transaction mode, LISTEN direct, behind
    /// HAProxy checking /readyz; the replicas trust X-Forwarded-For and know every variable they are given.
    @Test func theClusterProfileIsTheProductionShape() throws {
        let text = try Self.composeText()
        let compose = LineReader.read(text)
        let replicas = try #require(compose.services["latchd-cluster"])
        let known = Set(ConfigurationLoader.variables.map(\.name))
        #expect(replicas.environment.filter { $0 != "DATABASE_URL" && !known.contains($0) }.isEmpty, "\(replicas.environment)")
        #expect(text.contains("DATABASE_URL: postgresql://latch:latch@pgbouncer:6432/latch?pgbouncer=true"))
        #expect(text.contains("LATCH_DATABASE_LISTEN_URL: postgresql://latch:latch@postgres:5432/latch"))
        #expect(text.contains("PGBOUNCER_POOL_MODE: transaction"))
        #expect(replicas.environment.contains("LATCH_TRUST_PROXY") && replicas.hasHealthcheck)
        #expect(replicas.dependsOn.sorted() == ["mail", "pgbouncer"])
        #expect(compose.services["haproxy"]?.dependsOn == ["latchd-cluster"])
        for name in ["pgbouncer", "latchd-cluster", "haproxy"] {
            #expect(LineReader.entries(of: "profiles", in: name, text).isEmpty, "inline list, not entries")
            #expect(compose.services[name]?.hasHealthcheck == true, "\(name)")
        }
        #expect(text.components(separatedBy: #"profiles: ["cluster"]"#).count == 4, "three services in the profile")
        let haproxy = try String(contentsOf: Self.root.appendingPathComponent("docker/haproxy.cfg"), encoding: .utf8)
        #expect(haproxy.contains("option httpchk GET /readyz"))
        #expect(haproxy.contains("server-template latchd 3 latchd-cluster:8080 check"))
        #expect(haproxy.contains("option forwardfor"))
    }

    @Test func dockerfileShipsTheMigrations() throws {
        let dockerfile = try String(contentsOf: Self.root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let copies = dockerfile.split(separator: "\n").filter { $0.hasPrefix("COPY ") }
        #expect(copies.contains { $0.split(separator: " ").dropFirst().first.map { $0 == "sql" || $0 == "sql/" } ?? false },
                "no COPY of sql/ in the Dockerfile")
        #expect(dockerfile.contains("LATCH_MIGRATIONS_DIR="))
    }

    @Test func lineReaderReadsBothEnvironmentForms() {
        let text = """
            services:
              a:
                image: x
                environment:
                  LATCH_LISTEN: 0.0.0.0:8080   # a comment
                  "DATABASE_URL": postgresql://db
                healthcheck:
                  test: ["CMD", "true"]
              b:
                environment:
                  - LATCH_APP_SCHEME=myapp
                depends_on:
                  a:
                    condition: service_healthy
            volumes:
              data:
            """
        let compose = LineReader.read(text)
        #expect(compose.services.keys.sorted() == ["a", "b"])
        #expect(compose.services["a"] == Service(hasHealthcheck: true, environment: ["LATCH_LISTEN", "DATABASE_URL"]))
        #expect(compose.services["b"] == Service(hasHealthcheck: false, environment: ["LATCH_APP_SCHEME"],
                                                 dependsOn: ["a"]))
    }
}


extension DockerComposeTests {
    /// A structural reader for the block-style subset compose files use: `services:` at column 0, service names at
    /// 2 spaces, their keys at 4, and `environment` / `depends_on` entries (`KEY: v`, `- KEY=v`, `name:`) at 6.
    enum LineReader {
        static func read(_ text: String) -> Compose {
            var compose = Compose()
            var inServices = false
            var service: String?
            var section: String?
            for raw in text.split(separator: "\n") {
                let line = raw.prefix { $0 != "#" }.replacingOccurrences(of: "\t", with: "    ")
                guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                let indent = line.prefix { $0 == " " }.count
                let content = line.trimmingCharacters(in: .whitespaces)
                switch indent {
                case 0:
                    inServices = content == "services:"
                    service = nil
                case 2 where inServices:
                    service = key(content)
                    section = nil
                    if let service { compose.services[service] = Service() }
                case 4 where inServices && service != nil:
                    section = key(content)
                    if section == "healthcheck", let service { compose.services[service]?.hasHealthcheck = true }
                case 6 where inServices:
                    guard let service, let entry = entry(content) else { continue }
                    if section == "environment" { compose.services[service]?.environment.append(entry) }
                    if section == "depends_on" { compose.services[service]?.dependsOn.append(entry) }
                default:
                    continue
                }
            }
            return compose
        }

        /// The `- entry` lines of one section of one service (e.g. latchd's `ports`), quotes and comments removed.
        static func entries(of section: String, in service: String, _ text: String) -> [String] {
            var current: (service: String?, section: String?) = (nil, nil)
            var found: [String] = []
            for raw in text.split(separator: "\n") {
                let line = raw.prefix { $0 != "#" }
                let content = line.trimmingCharacters(in: .whitespaces)
                guard !content.isEmpty else { continue }
                switch line.prefix(while: { $0 == " " }).count {
                case 0: current = (nil, nil)
                case 2: current = (key(content), nil)
                case 4: current.section = key(content)
                case 6 where current.service == service && current.section == section && content.hasPrefix("- "):
                    found.append(content.dropFirst(2).trimmingCharacters(in: CharacterSet(charactersIn: "'\" ")))
                default: continue
                }
            }
            return found
        }

        /// `name:` or `name: value` -> `name`, quotes removed.
        private static func key(_ content: String) -> String? {
            guard let colon = content.firstIndex(of: ":") else { return nil }
            return content[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "'\" "))
        }

        /// `KEY: v`, `- KEY=v` or `- name` -> the name.
        private static func entry(_ content: String) -> String? {
            if content.hasPrefix("- ") {
                let item = content.dropFirst(2).trimmingCharacters(in: CharacterSet(charactersIn: "'\" "))
                return String(item.prefix { $0 != "=" })
            }
            return key(content)
        }
    }

    /// PyYAML in a subprocess, the document back as JSON. nil when no python3 with PyYAML is installed.
    enum PyYAML {
        static let script = """
            import json, sys
            try:
                import yaml
            except ImportError:
                sys.exit(3)
            json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)
            """

        static func load(_ file: URL) throws -> [String: Any]? {
            let candidates = [root.appendingPathComponent(".build/venv/bin/python").path, "/usr/bin/python3",
                              "/usr/local/bin/python3"]
            for python in candidates where FileManager.default.isExecutableFile(atPath: python) {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: python)
                process.arguments = ["-c", script, file.path]
                let output = Pipe()
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                try process.run()
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                if process.terminationStatus == 3 { continue }
                guard process.terminationStatus == 0 else { throw Failure.notYAML(python) }
                return try JSONSerialization.jsonObject(with: data) as? [String: Any]
            }
            return nil
        }
    }

    enum Failure: Error {
        case notYAML(String)
    }
}
