extension LandingPageWords {
    /// German, addressing the reader formally ("Sie"), as account mail does. The product name stands on its own
    /// ("Ihr Konto bei Acme") rather than in a compound, which a name with spaces would break.
    static func german(_ product: String) -> LandingPageWords {
        LandingPageWords(
            confirmReadyHeading: "Bestätigen Sie Ihre E-Mail-Adresse",
            resetReadyHeading: "Wählen Sie ein neues Passwort",
            emailChangeReadyHeading: "Bestätigen Sie Ihre neue E-Mail-Adresse",
            signInReadyHeading: "Öffnen Sie die App auf dem Gerät, auf dem Sie die Anmeldung angefordert haben",
            inviteReadyHeading: "Nehmen Sie Ihre Einladung an",
            confirmDoneHeading: "E-Mail-Adresse bestätigt",
            resetDoneHeading: "Passwort geändert",
            emailChangeDoneHeading: "E-Mail-Adresse geändert",
            inviteDoneHeading: "Einladung angenommen",
            expiredHeading: "Dieser Link ist abgelaufen",
            usedHeading: "Dieser Link wurde bereits verwendet",
            supersededHeading: "Dieser Link wurde ersetzt",
            invalidHeading: "Dieser Link ist ungültig",
            emailTakenHeading: "Diese Adresse ist bereits vergeben",
            alreadyConfirmedHeading: "E-Mail-Adresse bereits bestätigt",
            disabledHeading: "Konto deaktiviert",
            rateLimitedHeading: "Zu viele Versuche",
            tryAgainHeading: "Bitte versuchen Sie es erneut",
            unavailableHeading: "Vorübergehend nicht verfügbar",

            confirmReady: "Klicken Sie auf die Schaltfläche, um die E-Mail-Adresse Ihres Kontos bei \(product) "
                + "zu bestätigen.",
            resetReady: "Geben Sie ein neues Passwort für Ihr Konto bei \(product) ein.",
            emailChangeReady: { from, to in
                "Klicken Sie auf die Schaltfläche, um die Adresse Ihres Kontos bei \(product) von \(from) in \(to) "
                    + "zu ändern."
            },
            emailChangeReadyUnknown: "Klicken Sie auf die Schaltfläche, um diese Adresse für Ihr Konto bei "
                + "\(product) zu verwenden.",
            signInReady: "Dieser Link funktioniert nur auf dem Gerät, auf dem Sie die Anmeldung bei \(product) "
                + "angefordert haben. Ist das ein anderes Gerät, geben Sie dort den Code aus der E-Mail in der App "
                + "von \(product) ein.",
            inviteReady: "Wählen Sie das Passwort für Ihr Konto bei \(product). Damit bestätigen Sie auch Ihre "
                + "E-Mail-Adresse.",
            confirmDone: "Ihre E-Mail-Adresse ist bestätigt. Sie können sich jetzt bei \(product) anmelden.",
            resetDone: "Ihr Passwort wurde geändert und alle Geräte wurden abgemeldet. Melden Sie sich mit Ihrem "
                + "neuen Passwort an.",
            emailChangeDone: "Ihr Konto bei \(product) verwendet jetzt diese E-Mail-Adresse. Melden Sie sich ab "
                + "sofort damit an.",
            inviteDone: "Ihr Passwort ist festgelegt und Ihre E-Mail-Adresse bestätigt. Melden Sie sich damit bei "
                + "\(product) an.",
            confirmExpired: "Bestätigungslinks sind nur begrenzt gültig. Öffnen Sie \(product) und fordern Sie eine "
                + "neue Bestätigungs-E-Mail an.",
            resetExpired: "Links zum Zurücksetzen des Passworts sind nur begrenzt gültig. Fordern Sie auf dem "
                + "Anmeldebildschirm einen neuen an.",
            emailChangeExpired: "Links zum Ändern der Adresse sind nur begrenzt gültig. Fordern Sie die Änderung in "
                + "\(product) erneut an.",
            signInExpired: "Anmeldelinks sind nur begrenzt gültig. Fordern Sie in der App von \(product) eine neue "
                + "Anmelde-E-Mail an.",
            inviteExpired: "Einladungen sind nur begrenzt gültig. Bitten Sie die Person, die Sie eingeladen hat, um eine "
                + "neue, oder fordern Sie auf dem Anmeldebildschirm das Zurücksetzen des Passworts an.",
            confirmUsed: "Dieser Bestätigungslink wurde bereits verwendet. Wenn Ihre Adresse bestätigt ist, können "
                + "Sie sich anmelden.",
            resetUsed: "Dieser Link zum Zurücksetzen wurde bereits verwendet. Fordern Sie einen neuen Link an, wenn "
                + "Sie Ihr Passwort noch ändern möchten.",
            emailChangeUsed: "Dieser Link wurde bereits verwendet. Wenn die Änderung geklappt hat, melden Sie sich "
                + "mit der neuen Adresse an.",
            signInUsed: "Dieser Anmeldelink wurde bereits verwendet. Um sich erneut anzumelden, fordern Sie in der "
                + "App von \(product) eine neue Anmelde-E-Mail an.",
            inviteUsed: "Diese Einladung wurde bereits angenommen. Melden Sie sich mit Ihrer E-Mail-Adresse und Ihrem "
                + "Passwort bei \(product) an.",
            confirmSuperseded: "Eine neuere E-Mail oder eine Passwortänderung hat diesen Link ersetzt. Verwenden Sie "
                + "den Link aus der neuesten E-Mail von \(product) oder fordern Sie einen neuen an.",
            resetSuperseded: "Das Passwort wurde geändert, seit dieser Link verschickt wurde, oder eine neuere E-Mail "
                + "hat ihn ersetzt. Fordern Sie einen neuen Link an, wenn Sie Ihr Passwort noch ändern möchten.",
            emailChangeSuperseded: "Eine neuere Anfrage, eine Passwortänderung oder eine Adressänderung hat diesen "
                + "Link ersetzt. Verwenden Sie die neueste E-Mail von \(product) oder fordern Sie die Änderung "
                + "erneut an.",
            signInSuperseded: "Eine neuere Anmelde-E-Mail oder eine Passwortänderung hat diesen Link ersetzt. "
                + "Verwenden Sie die neueste E-Mail von \(product) oder fordern Sie in der App eine neue an.",
            inviteSuperseded: "Diese Einladung wurde ersetzt: Das Konto hat bereits ein Passwort, oder eine neuere E-Mail hat "
                + "den Link ersetzt. Melden Sie sich an oder setzen Sie das Passwort auf dem Anmeldebildschirm zurück.",
            invalid: "Prüfen Sie, ob Sie den vollständigen Link aus der neuesten E-Mail geöffnet haben.",
            signInInvalid: "Prüfen Sie, ob Sie den vollständigen Link aus der neuesten E-Mail geöffnet haben, oder "
                + "fordern Sie in der App von \(product) eine neue Anmelde-E-Mail an.",
            emailTaken: "Ein anderes Konto bei \(product) verwendet diese E-Mail-Adresse inzwischen. Es wurde nichts "
                + "geändert.",
            alreadyConfirmed: "Diese E-Mail-Adresse ist bereits bestätigt. Sie können sich bei \(product) anmelden.",
            disabled: "Dieses Konto wurde deaktiviert.",
            rateLimited: { seconds in "Zu viele Versuche. Versuchen Sie es in \(seconds) Sekunden erneut." },
            refused: "Dieses Formular kann nur von der Seite gesendet werden, die es angezeigt hat. Öffnen Sie den "
                + "Link aus Ihrer E-Mail erneut.",
            badForm: "Das Formular ist unvollständig angekommen. Öffnen Sie den Link aus Ihrer E-Mail erneut.",
            unavailable: "Der Dienst ist vorübergehend nicht verfügbar. Versuchen Sie es in ein paar Minuten erneut.",

            confirmButton: "E-Mail-Adresse bestätigen",
            resetButton: "Neues Passwort festlegen",
            changeAddressButton: "E-Mail-Adresse ändern",
            acceptInviteButton: "Passwort festlegen",
            openInApp: "In der App von \(product) öffnen",
            openApp: "App von \(product) öffnen",
            emailLabel: "E-Mail-Adresse",
            codeLabel: "Code aus der E-Mail",
            newPasswordLabel: "Neues Passwort",
            passwordHint: { minimum, maximum in "Zwischen \(minimum) und \(maximum) Zeichen." },
            secondFactorLabel: "Code aus der Authenticator-App oder Wiederherstellungscode",
            secondFactorHint: "Nur wenn Sie die Bestätigung in zwei Schritten aktiviert haben.",

            passwordTooShort: { minimum in "Das Passwort muss mindestens \(minimum) Zeichen lang sein." },
            passwordTooLong: { maximum in "Das Passwort darf höchstens \(maximum) Zeichen lang sein." },
            passwordIsEmail: "Das Passwort darf nicht Ihre E-Mail-Adresse sein.",
            passwordTooCommon: "Dieses Passwort ist zu verbreitet. Wählen Sie ein anderes.",
            secondFactorRequired: "Für dieses Konto ist die Bestätigung in zwei Schritten aktiviert. Geben Sie einen "
                + "Code aus der Authenticator-App oder einen Wiederherstellungscode ein.",
            secondFactorInvalid: "Dieser Code ist ungültig. Verwenden Sie den aktuellen Code aus Ihrer "
                + "Authenticator-App oder einen Wiederherstellungscode.",
            codeInvalid: "Dieser Code ist ungültig. Prüfen Sie die neueste E-Mail oder fordern Sie einen neuen Code "
                + "an.",
            emailInvalid: "Das ist keine gültige E-Mail-Adresse.")
    }
}
