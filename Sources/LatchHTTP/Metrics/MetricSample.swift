/// One line of a metric family: labels and a value.
public struct MetricSample: Hashable, Sendable {
    /// Appended to the family name (`_bucket`, `_sum`, `_count` for histograms); usually empty.
    public var suffix: String
    /// Label names must match `[a-zA-Z_][a-zA-Z0-9_]*`; values are escaped when printed. Printed sorted by name.
    public var labels: [String: String]
    public var value: Double

    public init(suffix: String = "", labels: [String: String] = [:], value: Double) {
        self.suffix = suffix
        self.labels = labels
        self.value = value
    }
}
