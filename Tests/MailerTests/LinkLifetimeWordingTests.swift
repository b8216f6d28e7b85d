@testable import Mailer
import Testing

/// The words come from each language's shipped `units.json`, so these also check the shipped files.
@Suite struct LinkLifetimeWordingTests {
    let templates: MailTemplateSet

    init() throws {
        templates = try MailTemplateSet.shipped()
    }

    @Test(arguments: [
        (86_400.0, "24 hours"), (3_600, "1 hour"), (1_800, "30 minutes"), (60, "1 minute"),
        (5_400, "1 hour and 30 minutes"), (172_800, "48 hours"), (259_200, "3 days"), (45, "45 seconds"),
        (1, "1 second"), (119, "1 minute"), (7_260, "2 hours and 1 minute"),
    ])
    func english(seconds: Double, expected: String) {
        #expect(templates.templates("en").wording.describe(seconds) == expected)
    }

    @Test(arguments: [
        (86_400.0, "24 Stunden"), (3_600, "1 Stunde"), (1_800, "30 Minuten"), (60, "1 Minute"),
        (5_400, "1 Stunde und 30 Minuten"), (259_200, "3 Tage"), (45, "45 Sekunden"), (1, "1 Sekunde"),
    ])
    func german(seconds: Double, expected: String) {
        #expect(templates.templates("de").wording.describe(seconds) == expected)
    }

    /// French takes the singular for 0 too ("0 seconde"), which is why the singular counts are data.
    @Test(arguments: [
        (86_400.0, "24 heures"), (3_600, "1 heure"), (1_800, "30 minutes"), (60, "1 minute"),
        (5_400, "1 heure et 30 minutes"), (259_200, "3 jours"), (45, "45 secondes"), (0, "0 seconde"),
    ])
    func french(seconds: Double, expected: String) {
        #expect(templates.templates("fr").wording.describe(seconds) == expected)
    }
}
