/// A ARCHITECTURE.md, "Performance targets" target next to what this run measured.
struct TargetCheck: Codable {
    /// The target as ARCHITECTURE.md ("Performance targets") states it.
    let target: String
    /// The measured numbers behind the verdict, as text.
    let measured: String
    /// The measured ratio (or value) compared with `limit`.
    let value: Double
    let limit: Double
    let pass: Bool

    /// Passes when `value >= limit`.
    static func atLeast(_ target: String, measured: String, value: Double, limit: Double) -> TargetCheck {
        TargetCheck(target: target, measured: measured, value: value, limit: limit, pass: value >= limit)
    }

    /// Passes when `value <= limit` (or `< limit` when `strictly`).
    static func atMost(_ target: String, measured: String, value: Double, limit: Double, strictly: Bool = false)
        -> TargetCheck
    {
        TargetCheck(target: target, measured: measured, value: value, limit: limit,
                    pass: strictly ? value < limit : value <= limit)
    }

    /// A miss whatever the numbers, when any of `lines` had failed requests: such a line did not measure what it says
    /// (a 401 from an expired token is answered faster than the request it stands for).
    func requiring(noErrorsIn lines: ReportLine...) -> TargetCheck {
        let failing = lines.filter { $0.errors > 0 }
        guard !failing.isEmpty else { return self }
        let why = failing.map { "\($0.errors) failed requests in '\($0.label)'" }.joined(separator: ", ")
        return TargetCheck(target: target, measured: measured + " (not measured: " + why + ")", value: value,
                           limit: limit, pass: false)
    }
}
