import Foundation

extension Duration {
    /// The duration as Foundation seconds: for date arithmetic (`Date.addingTimeInterval`), `Thread.sleep` and
    /// Dispatch timeouts. Every module that needs the conversion uses this one.
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) * 1e-18
    }
}
