import AuthCore
import Foundation

extension InMemoryAuthStore {
    public func deferMail(_ request: DeferredMail) throws {
        try locked { $0.deferredMail.append(request) }
    }

    public func takeDeferredMail() throws -> DeferredMail? {
        try locked { $0.deferredMail.isEmpty ? nil : $0.deferredMail.removeFirst() }
    }
}
