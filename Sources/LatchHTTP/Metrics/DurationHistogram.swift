/// Request durations of one route, as a Prometheus histogram (per-bucket counts, cumulated when rendered).
struct DurationHistogram: Hashable, Sendable {
    /// Upper bounds in seconds: from a cached `GET /v1/me` (well under 1 ms) to a queued sign-in (seconds).
    static let bounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private(set) var bucketCounts = [Int](repeating: 0, count: bounds.count)
    private(set) var sum: Double = 0
    private(set) var count = 0

    mutating func observe(seconds: Double) {
        if let index = Self.bounds.firstIndex(where: { seconds <= $0 }) {
            bucketCounts[index] += 1
        }
        sum += seconds
        count += 1
    }

    /// `_bucket` samples (cumulative, then `+Inf`), `_sum` and `_count`, each with `labels`.
    func samples(labels: [String: String]) -> [MetricSample] {
        var samples: [MetricSample] = []
        var cumulative = 0
        for (bound, bucket) in zip(Self.bounds, bucketCounts) {
            cumulative += bucket
            samples.append(MetricSample(suffix: "_bucket", labels: with(le: PrometheusText.formatValue(bound), labels),
                                        value: Double(cumulative)))
        }
        samples.append(MetricSample(suffix: "_bucket", labels: with(le: "+Inf", labels), value: Double(count)))
        samples.append(MetricSample(suffix: "_sum", labels: labels, value: sum))
        samples.append(MetricSample(suffix: "_count", labels: labels, value: Double(count)))
        return samples
    }

    private func with(le bound: String, _ labels: [String: String]) -> [String: String] {
        var labels = labels
        labels["le"] = bound
        return labels
    }
}
