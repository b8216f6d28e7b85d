/// Why a libcurl transfer could not be set up or did not complete. Holds curl's texts only: never an option's
/// value, a header or a body (they may carry passwords and tokens).
public enum CurlError: Error, Sendable, Hashable {
    /// Nothing was attempted: the global init failed, or libcurl could not allocate a handle, list or MIME part.
    case setup(String)
    /// A libcurl call on the handle failed before the transfer: `step` names it (`option 10002` for an option,
    /// else the function), `code` is the `CURLcode`, `message` curl's text.
    case call(step: String, code: Int, message: String)
    /// The transfer failed (resolving, connecting, TLS, a timeout, the server ending the exchange): the `CURLcode`
    /// and curl's text, the detailed one from the error buffer when curl wrote one.
    case transfer(code: Int, message: String)
}

extension CurlError: CustomStringConvertible {
    /// The setup reason, `step: message`, or the transfer's message alone, as the modules report them.
    public var description: String {
        switch self {
        case .setup(let reason): reason
        case .call(let step, _, let message): "\(step): \(message)"
        case .transfer(_, let message): message
        }
    }
}
