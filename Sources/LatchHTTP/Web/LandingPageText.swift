/// The heading and message of a landing page, per flow and state: plain sentences that say what happened and what to
/// do next (links that fail need clear "expired" and "replaced" states, or people keep clicking dead links). Which
/// sentence fits is decided here, once for every language; the sentences are `words`'. Not yet HTML-escaped.
struct LandingPageText: Equatable {
    let heading: String
    let message: String

    init(flow: LandingFlow, state: LandingPageState, words w: LandingPageWords, addressChange: AddressChange? = nil) {
        switch (flow, state) {
        case (.emailChange, .ready):
            heading = w.emailChangeReadyHeading
            message = if let addressChange {
                w.emailChangeReady(addressChange.from, addressChange.to)
            } else {
                w.emailChangeReadyUnknown
            }
        case (.emailChange, .done): (heading, message) = (w.emailChangeDoneHeading, w.emailChangeDone)
        case (.emailChange, .expired): (heading, message) = (w.expiredHeading, w.emailChangeExpired)
        case (.emailChange, .used): (heading, message) = (w.usedHeading, w.emailChangeUsed)
        case (.emailChange, .superseded): (heading, message) = (w.supersededHeading, w.emailChangeSuperseded)
        case (_, .emailTaken): (heading, message) = (w.emailTakenHeading, w.emailTaken)
        case (.confirm, .ready): (heading, message) = (w.confirmReadyHeading, w.confirmReady)
        case (.reset, .ready): (heading, message) = (w.resetReadyHeading, w.resetReady)
        case (.confirm, .done): (heading, message) = (w.confirmDoneHeading, w.confirmDone)
        case (.reset, .done): (heading, message) = (w.resetDoneHeading, w.resetDone)
        case (.confirm, .expired): (heading, message) = (w.expiredHeading, w.confirmExpired)
        case (.reset, .expired): (heading, message) = (w.expiredHeading, w.resetExpired)
        case (.confirm, .used): (heading, message) = (w.usedHeading, w.confirmUsed)
        case (.reset, .used): (heading, message) = (w.usedHeading, w.resetUsed)
        case (.confirm, .superseded): (heading, message) = (w.supersededHeading, w.confirmSuperseded)
        case (.reset, .superseded): (heading, message) = (w.supersededHeading, w.resetSuperseded)
        case (.signIn, .ready): (heading, message) = (w.signInReadyHeading, w.signInReady)
        case (.signIn, .expired): (heading, message) = (w.expiredHeading, w.signInExpired)
        case (.signIn, .used): (heading, message) = (w.usedHeading, w.signInUsed)
        case (.signIn, .superseded): (heading, message) = (w.supersededHeading, w.signInSuperseded)
        case (.signIn, .invalid): (heading, message) = (w.invalidHeading, w.signInInvalid)
        case (.invite, .ready): (heading, message) = (w.inviteReadyHeading, w.inviteReady)
        case (.invite, .done): (heading, message) = (w.inviteDoneHeading, w.inviteDone)
        case (.invite, .expired): (heading, message) = (w.expiredHeading, w.inviteExpired)
        case (.invite, .used): (heading, message) = (w.usedHeading, w.inviteUsed)
        case (.invite, .superseded): (heading, message) = (w.supersededHeading, w.inviteSuperseded)
        case (_, .alreadyConfirmed): (heading, message) = (w.alreadyConfirmedHeading, w.alreadyConfirmed)
        default: (heading, message) = Self.common(state, w)
        }
    }

    /// States whose wording does not depend on the flow.
    private static func common(_ state: LandingPageState, _ w: LandingPageWords) -> (String, String) {
        switch state {
        case .invalid: (w.invalidHeading, w.invalid)
        case .disabled: (w.disabledHeading, w.disabled)
        case .rateLimited(let seconds): (w.rateLimitedHeading, w.rateLimited(seconds))
        case .refused: (w.tryAgainHeading, w.refused)
        case .badForm, .unsupportedMediaType: (w.tryAgainHeading, w.badForm)
        case .unavailable: (w.unavailableHeading, w.unavailable)
        case .ready, .done, .expired, .used, .superseded, .alreadyConfirmed, .emailTaken: ("", "")
        }
    }
}
