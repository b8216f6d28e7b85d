import AuthCore
import Foundation

/// Where each file of one language comes from: the operator's directory when it has the file, else the shipped
/// one. A language only the operator has must be complete, since there is nothing to fall back on.
struct LocaleFiles {
    let locale: String
    let shipped: URL?
    let override: URL?

    /// Every file a language has, by name.
    static var names: [String] {
        ["layout.txt", "layout.html", "units.json"]
            + MailKind.allCases.flatMap { kind in ["subject", "txt", "html"].map { "\(kind.rawValue).\($0)" } }
    }

    /// The file's text and the path to name in errors.
    func read(_ name: String) throws(TemplateError) -> (text: String, path: String) {
        let url = try self.url(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .file(path: url.path, problem: "cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .file(path: url.path, problem: "is not UTF-8 text")
        }
        return (text, url.path)
    }

    private func url(_ name: String) throws(TemplateError) -> URL {
        for directory in [override, shipped].compactMap({ $0 }) {
            let url = directory.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        let directory = override ?? shipped
        let problem = shipped == nil
            ? "is missing (a language only LATCH_TEMPLATES_DIR has needs every file)" : "is missing"
        throw .file(path: directory.map { $0.appendingPathComponent(name).path } ?? name, problem: problem)
    }

    /// A file the project does not read is most likely a misspelt name that would silently do nothing.
    func checkOverrideNames() throws(TemplateError) {
        guard let override else { return }
        let known = Set(Self.names)
        let present = (try? FileManager.default.contentsOfDirectory(atPath: override.path)) ?? []
        for name in present.sorted() where !name.hasPrefix(".") && !known.contains(name) {
            throw .file(path: override.appendingPathComponent(name).path,
                        problem: "is not a template file (names are <kind>.subject, .txt, .html, layout.txt, "
                            + "layout.html, units.json; `latchctl mail kinds` lists the kinds)")
        }
    }
}
