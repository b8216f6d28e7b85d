import Foundation

/// A language's `units.json`: the words `LinkLifetimeWording` builds lifetimes from, e.g.
/// `{"singular": [1], "minute": {"one": "{{count}} Minute", "other": "{{count}} Minuten"}, …,
/// "hours_and_minutes": "{{hours}} und {{minutes}}"}`.
struct UnitsFile {
    let path: String

    private struct Contents: Decodable {
        struct Unit: Decodable {
            var one: String
            var other: String
        }

        var singular: [Int]
        var second: Unit
        var minute: Unit
        var hour: Unit
        var day: Unit
        var hoursAndMinutes: String

        enum CodingKeys: String, CodingKey {
            case singular, second, minute, hour, day
            case hoursAndMinutes = "hours_and_minutes"
        }
    }

    func decode(_ text: String) throws(TemplateError) -> LinkLifetimeWording {
        let contents: Contents
        do {
            contents = try JSONDecoder().decode(Contents.self, from: Data(text.utf8))
        } catch {
            throw .file(path: path, problem: "is not the expected JSON (singular, second, minute, hour, day with "
                + "one and other, hours_and_minutes): \(Self.reason(error))")
        }
        return LinkLifetimeWording(
            singular: Set(contents.singular), second: try unit(contents.second), minute: try unit(contents.minute),
            hour: try unit(contents.hour), day: try unit(contents.day),
            hoursAndMinutes: try template(contents.hoursAndMinutes, allowed: ["hours", "minutes"]))
    }

    private func unit(_ unit: Contents.Unit) throws(TemplateError) -> LinkLifetimeWording.Unit {
        LinkLifetimeWording.Unit(one: try template(unit.one, allowed: ["count"]),
                                 other: try template(unit.other, allowed: ["count"]))
    }

    private func template(_ source: String, allowed: Set<String>) throws(TemplateError) -> MailTemplate {
        let template: MailTemplate
        do {
            template = try MailTemplate(parsing: source)
        } catch {
            throw .file(path: path, problem: "\"\(source)\": \(error.description)")
        }
        guard template.names == allowed else {
            throw .file(path: path, problem: "\"\(source)\" must use exactly "
                + allowed.sorted().map { "{{\($0)}}" }.joined(separator: " and "))
        }
        return template
    }

    private static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): "\(key.stringValue) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.map(\.stringValue).joined(separator: ".") + ": " + context.debugDescription
        default: String(describing: error)
        }
    }
}
