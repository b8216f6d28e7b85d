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
}
