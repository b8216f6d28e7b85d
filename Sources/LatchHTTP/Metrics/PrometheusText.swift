/// The Prometheus text exposition format, version 0.0.4.
public enum PrometheusText {
    /// The `Content-Type` Prometheus expects for this format.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Renders families in order. A family with an invalid or already used name, and a sample with an invalid
    /// label name, are skipped: one bad source must not make the whole scrape unparsable.
    public static func render(_ families: [MetricFamily]) -> String {
        var output = ""
        var seen = Set<String>()
        for family in families where isValidMetricName(family.name) && seen.insert(family.name).inserted {
            output += "# HELP \(family.name) \(escapeHelp(family.help))\n"
            output += "# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples where isValidSuffix(sample.suffix) {
                guard let labels = renderLabels(sample.labels) else { continue }
                output += "\(family.name)\(sample.suffix)\(labels) \(formatValue(sample.value))\n"
            }
        }
        return output
    }

    /// `{a="x",b="y"}` sorted by name, empty for no labels, nil if a name is invalid.
    static func renderLabels(_ labels: [String: String]) -> String? {
        guard !labels.isEmpty else { return "" }
        var parts: [String] = []
        for (name, value) in labels.sorted(by: { $0.key < $1.key }) {
            guard isValidLabelName(name) else { return nil }
            parts.append("\(name)=\"\(escapeLabelValue(value))\"")
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// Integers without a fraction (counters read better), `+Inf`/`-Inf`/`NaN` as the format spells them.
    static func formatValue(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    static func escapeLabelValue(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static func escapeHelp(_ help: String) -> String {
        help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    static func isValidMetricName(_ name: String) -> Bool {
        isIdentifier(name, allowColon: true)
    }

    static func isValidLabelName(_ name: String) -> Bool {
        isIdentifier(name, allowColon: false)
    }

    private static func isValidSuffix(_ suffix: String) -> Bool {
        suffix.isEmpty || isIdentifier("x" + suffix, allowColon: true)
    }

    private static func isIdentifier(_ text: String, allowColon: Bool) -> Bool {
        guard let first = text.utf8.first else { return false }
        func isLetter(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_")
                || (allowColon && byte == UInt8(ascii: ":"))
        }
        return isLetter(first) && text.utf8.allSatisfy { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}
