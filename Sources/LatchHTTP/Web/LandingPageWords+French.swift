extension LandingPageWords {
    /// French, addressing the reader as "vous", with the typographic apostrophe (’), which needs no escaping.
    static func french(_ product: String) -> LandingPageWords {
        LandingPageWords(
            confirmReadyHeading: "Confirmez votre adresse e-mail",
            resetReadyHeading: "Choisissez un nouveau mot de passe",
            emailChangeReadyHeading: "Confirmez votre nouvelle adresse e-mail",
            signInReadyHeading: "Ouvrez l’application sur l’appareil où vous avez demandé à vous connecter",
            inviteReadyHeading: "Acceptez votre invitation",
            confirmDoneHeading: "Adresse e-mail confirmée",
            resetDoneHeading: "Mot de passe modifié",
            emailChangeDoneHeading: "Adresse e-mail modifiée",
            inviteDoneHeading: "Invitation acceptée",
            expiredHeading: "Ce lien a expiré",
            usedHeading: "Ce lien a déjà été utilisé",
            supersededHeading: "Ce lien a été remplacé",
            invalidHeading: "Ce lien n’est pas valide",
            emailTakenHeading: "Cette adresse est déjà utilisée",
            alreadyConfirmedHeading: "Adresse e-mail déjà confirmée",
            disabledHeading: "Compte désactivé",
            rateLimitedHeading: "Trop de tentatives",
            tryAgainHeading: "Veuillez réessayer",
            unavailableHeading: "Service temporairement indisponible",

            confirmReady: "Appuyez sur le bouton pour confirmer l’adresse e-mail de votre compte \(product).",
            resetReady: "Saisissez un nouveau mot de passe pour votre compte \(product).",
            emailChangeReady: { from, to in
                "Appuyez sur le bouton pour remplacer \(from) par \(to) comme adresse de votre compte \(product)."
            },
            emailChangeReadyUnknown: "Appuyez sur le bouton pour utiliser cette adresse e-mail pour votre compte "
                + "\(product).",
            signInReady: "Ce lien ne fonctionne que sur l’appareil où vous avez demandé à vous connecter à "
                + "\(product). S’il s’agit d’un autre appareil, saisissez-y le code reçu par e-mail dans "
                + "l’application \(product).",
            inviteReady: "Choisissez le mot de passe de votre compte \(product). Cela confirme aussi votre adresse e-mail.",
            confirmDone: "Votre adresse e-mail est confirmée. Vous pouvez maintenant vous connecter à \(product).",
            resetDone: "Votre mot de passe a été modifié et tous les appareils ont été déconnectés. Connectez-vous "
                + "avec votre nouveau mot de passe.",
            emailChangeDone: "Votre compte \(product) utilise maintenant cette adresse e-mail. Utilisez-la "
                + "désormais pour vous connecter.",
            inviteDone: "Votre mot de passe est enregistré et votre adresse e-mail confirmée. Connectez-vous à \(product) "
                + "avec eux.",
            confirmExpired: "Les liens de confirmation ne sont valables que pendant une durée limitée. Ouvrez "
                + "\(product) et demandez un nouvel e-mail de confirmation.",
            resetExpired: "Les liens de réinitialisation du mot de passe ne sont valables que pendant une durée "
                + "limitée. Demandez-en un nouveau depuis l’écran de connexion.",
            emailChangeExpired: "Les liens de changement d’adresse ne sont valables que pendant une durée limitée. "
                + "Demandez à nouveau le changement dans \(product).",
            signInExpired: "Les liens de connexion ne sont valables que pendant une durée limitée. Demandez un "
                + "nouvel e-mail de connexion dans l’application \(product).",
            inviteExpired: "Les invitations ne sont valables que pendant une durée limitée. Demandez-en une nouvelle à la "
                + "personne qui vous a invité, ou demandez une réinitialisation du mot de passe depuis l’écran de "
                + "connexion.",
            confirmUsed: "Ce lien de confirmation a déjà été utilisé. Si votre adresse est confirmée, vous pouvez "
                + "vous connecter.",
            resetUsed: "Ce lien de réinitialisation a déjà été utilisé. Demandez un nouveau lien si vous devez "
                + "encore changer votre mot de passe.",
            emailChangeUsed: "Ce lien a déjà été utilisé. Si le changement a abouti, connectez-vous avec la "
                + "nouvelle adresse.",
            signInUsed: "Ce lien de connexion a déjà été utilisé. Pour vous reconnecter, demandez un nouvel e-mail "
                + "de connexion dans l’application \(product).",
            inviteUsed: "Cette invitation a déjà été acceptée. Connectez-vous à \(product) avec votre adresse e-mail et votre "
                + "mot de passe.",
            confirmSuperseded: "Un e-mail plus récent ou un changement de mot de passe a remplacé ce lien. Utilisez "
                + "le lien du dernier e-mail de \(product), ou demandez-en un nouveau.",
            resetSuperseded: "Le mot de passe a été modifié depuis l’envoi de ce lien, ou un e-mail plus récent l’a "
                + "remplacé. Demandez un nouveau lien si vous devez encore changer votre mot de passe.",
            emailChangeSuperseded: "Une demande plus récente, un changement de mot de passe ou un changement "
                + "d’adresse a remplacé ce lien. Utilisez le dernier e-mail de \(product), ou demandez à nouveau "
                + "le changement.",
            signInSuperseded: "Un e-mail de connexion plus récent ou un changement de mot de passe a remplacé ce "
                + "lien. Utilisez le dernier e-mail de \(product), ou demandez-en un nouveau dans l’application.",
            inviteSuperseded: "Cette invitation a été remplacée : le compte a déjà un mot de passe, ou un e-mail plus récent a "
                + "remplacé le lien. Connectez-vous, ou demandez une réinitialisation depuis l’écran de connexion.",
            invalid: "Vérifiez que vous avez ouvert le lien complet du dernier e-mail.",
            signInInvalid: "Vérifiez que vous avez ouvert le lien complet du dernier e-mail, ou demandez un nouvel "
                + "e-mail de connexion dans l’application \(product).",
            emailTaken: "Un autre compte \(product) utilise maintenant cette adresse e-mail. Rien n’a donc été "
                + "modifié.",
            alreadyConfirmed: "Cette adresse e-mail est déjà confirmée. Vous pouvez vous connecter à \(product).",
            disabled: "Ce compte a été désactivé.",
            rateLimited: { seconds in "Trop de tentatives. Réessayez dans \(seconds) secondes." },
            refused: "Ce formulaire ne peut être envoyé que depuis la page qui l’a affiché. Ouvrez à nouveau le "
                + "lien de votre e-mail.",
            badForm: "Le formulaire est arrivé incomplet. Ouvrez à nouveau le lien de votre e-mail.",
            unavailable: "Le service est temporairement indisponible. Réessayez dans quelques minutes.",

            confirmButton: "Confirmer l’adresse e-mail",
            resetButton: "Enregistrer le mot de passe",
            changeAddressButton: "Changer d’adresse e-mail",
            acceptInviteButton: "Définir le mot de passe",
            openInApp: "Ouvrir dans l’application \(product)",
            openApp: "Ouvrir l’application \(product)",
            emailLabel: "Adresse e-mail",
            codeLabel: "Code reçu par e-mail",
            newPasswordLabel: "Nouveau mot de passe",
            passwordHint: { minimum, maximum in "Entre \(minimum) et \(maximum) caractères." },
            secondFactorLabel: "Code de l’application d’authentification ou code de récupération",
            secondFactorHint: "Uniquement si vous avez activé la validation en deux étapes.",

            passwordTooShort: { minimum in "Le mot de passe doit comporter au moins \(minimum) caractères." },
            passwordTooLong: { maximum in "Le mot de passe doit comporter au plus \(maximum) caractères." },
            passwordIsEmail: "Le mot de passe ne doit pas être votre adresse e-mail.",
            passwordTooCommon: "Ce mot de passe est trop courant. Choisissez-en un autre.",
            secondFactorRequired: "La validation en deux étapes est activée pour ce compte. Saisissez un code de "
                + "l’application d’authentification ou un code de récupération.",
            secondFactorInvalid: "Ce code n’est pas valide. Utilisez le code actuel de votre application "
                + "d’authentification, ou un code de récupération.",
            codeInvalid: "Ce code n’est pas valide. Vérifiez le dernier e-mail, ou demandez un nouveau code.",
            emailInvalid: "Cette adresse e-mail n’est pas valide.")
    }
}
