/// One Prometheus metric family: a name, its help text, its type, and its samples.
public struct MetricFamily: Hashable, Sendable {
    /// The Prometheus `# TYPE`.
    public enum Kind: String, Hashable, Sendable {
        case counter
        case gauge
        /// Samples carry the `_bucket` (with `le`), `_sum` and `_count` suffixes.
        case histogram
    }

    /// `[a-zA-Z_:][a-zA-Z0-9_:]*`, e.g. `latch_outbox_sent_total`; a family with another name is left out.
    public var name: String
    public var help: String
    public var kind: Kind
    public var samples: [MetricSample]

    public init(name: String, help: String, kind: Kind, samples: [MetricSample]) {
        self.name = name
        self.help = help
        self.kind = kind
        self.samples = samples
    }

    /// A family with one unlabelled sample.
    public static func single(name: String, help: String, kind: Kind, value: Double) -> MetricFamily {
        MetricFamily(name: name, help: help, kind: kind, samples: [MetricSample(value: value)])
    }
}
