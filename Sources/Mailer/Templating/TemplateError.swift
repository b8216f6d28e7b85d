/// Why the mail templates cannot be used; latchd refuses to start on any of these (exit 2), since a mail that
/// cannot be rendered would otherwise fail only when a user needs it.
public enum TemplateError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A file missing, unreadable, unparsable, or using a placeholder its kind does not have.
    case file(path: String, problem: String)
    /// `LATCH_DEFAULT_LOCALE` names a language no template directory has.
    case unknownDefaultLocale(String, available: [String])

    public var description: String {
        switch self {
        case .file(let path, let problem): "\(path): \(problem)"
        case .unknownDefaultLocale(let locale, let available):
            "\(locale) is not one of the template languages (\(available.joined(separator: ", ")))"
        }
    }
}
