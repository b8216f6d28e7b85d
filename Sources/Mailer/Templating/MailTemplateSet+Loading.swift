import AuthCore
import Foundation

extension MailTemplateSet {
    /// Loads the shipped languages and any language directory in `override` (`LATCH_TEMPLATES_DIR`), file by
    /// file the operator's first, then renders every kind in every language with sample values: whatever is
    /// wrong is found now, naming the file, rather than when a user needs the mail.
    public static func load(shipped: URL, override: URL?, defaultLocale: String) throws(TemplateError)
        -> MailTemplateSet
    {
        let shippedLocales = try localeDirectories(in: shipped)
        let operatorLocales = try override.map { url throws(TemplateError) in try localeDirectories(in: url) } ?? []
        var byLocale: [String: LocaleTemplates] = [:]
        for locale in Set(shippedLocales).union(operatorLocales).sorted() {
            let files = LocaleFiles(
                locale: locale,
                shipped: shippedLocales.contains(locale) ? shipped.appendingPathComponent(locale) : nil,
                override: operatorLocales.contains(locale) ? override?.appendingPathComponent(locale) : nil)
            try files.checkOverrideNames()
            byLocale[locale] = try LocaleTemplateLoader(files: files).load()
        }
        guard byLocale[defaultLocale] != nil else {
            throw .unknownDefaultLocale(defaultLocale, available: byLocale.keys.sorted())
        }
        return MailTemplateSet(defaultLocale: defaultLocale, byLocale: byLocale)
    }

    /// The subdirectories of `directory`, each a language; any other name is refused, so a typo cannot hide.
    private static func localeDirectories(in directory: URL) throws(TemplateError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw .file(path: directory.path, problem: "is not a directory") }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var locales: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            var isSubdirectory: ObjCBool = false
            let path = directory.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isSubdirectory), isSubdirectory.boolValue
            else { continue }
            guard LanguageTag.isValid(name) else {
                throw .file(path: path, problem: "is not a language tag (BCP 47, e.g. en, de, pt-BR)")
            }
            locales.append(name)
        }
        return locales
    }
}

/// The shape of a BCP 47 tag as a directory name: letters, then subtags of letters and digits after hyphens.
public enum LanguageTag {
    public static func isValid(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy(\.isASCIILetterValue) else {
            return false
        }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count) && part.allSatisfy { $0.isASCIILetterValue || ("0"..."9").contains($0) }
        }
    }
}

extension Character {
    fileprivate var isASCIILetterValue: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
