/// A client's `User-Agent` as it may be stored and shown: without control, format (bidi overrides, zero-width)
/// or line-separator characters, so that an operator's terminal (latchctl) or a log viewer never interprets
/// something a client chose, and cut to a sane length.
public enum UserAgentText {
    /// Longer agents are cut: they are stored per session and shown in listings.
    public static let maximumLength = 512

    /// The agent without forbidden characters; nil when nothing printable is left.
    public static func sanitized(_ raw: String?) -> String? {
        guard let raw else { return nil }
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars where !isForbidden(scalar) {
            scalars.append(scalar)
        }
        let text = String(String(scalars).prefix(maximumLength)).trimmingWhitespace()
        return text.isEmpty ? nil : text
    }

    /// The agent in a few words for a mail ("Chrome on Windows", "an iPhone"): enough for the owner to recognise
    /// their own device or to see that it was not theirs, nothing a client could use to put words in the mail
    /// (only fixed words come out, never text of the agent).
    public static func describe(_ raw: String?) -> String {
        guard let agent = sanitized(raw) else { return "an unknown device" }
        let browsers: [(marker: String, name: String)] = [
            ("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("CriOS/", "Chrome"), ("Chrome/", "Chrome"),
            ("Safari/", "Safari"),
        ]
        let systems: [(marker: String, name: String)] = [
            ("iPhone", "an iPhone"), ("iPad", "an iPad"), ("Android", "Android"), ("Windows", "Windows"),
            ("Mac OS X", "a Mac"), ("Macintosh", "a Mac"), ("CrOS", "ChromeOS"), ("Linux", "Linux"),
            ("Darwin", "an Apple device"), ("okhttp", "Android"),
        ]
        let browser = browsers.first { agent.contains($0.marker) }?.name
        let system = systems.first { agent.contains($0.marker) }?.name
        switch (browser, system) {
        case let (browser?, system?): return "\(browser) on \(system)"
        case let (browser?, nil): return browser
        case let (nil, system?): return "an app on \(system)"
        case (nil, nil): return "an unknown device"
        }
    }

    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: true
        default: false
        }
    }
}
