import AuthCore
import Foundation
import Testing

/// One promise of the store ports, written once against `any AuthStore` so that every implementation runs the
/// same check: the in-memory fake in AuthCoreTests, PostgreSQL in LatchStoreTests. A case sets up and observes
/// through port methods only, with times it passes in, so it states what a caller can rely on and nothing about
/// how a store keeps it.
public struct ContractCase: Sendable, CustomStringConvertible, CustomTestStringConvertible {
    /// "Port: promise", as the test list shows it.
    public let name: String
    let body: @Sendable (ContractFixture) throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (ContractFixture) throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the case on `store`, which must be empty: every case counts rows and limits from zero.
    /// Failed expectations are recorded as issues of the calling test; a store error is rethrown.
    public func run(_ store: any AuthStore, _ environment: ContractEnvironment = ContractEnvironment()) throws {
        try body(ContractFixture(store: store, environment: environment))
    }

    public var description: String { name }
    public var testDescription: String { name }
}

/// What a case needs besides the store.
public struct ContractEnvironment: Sendable {
    /// Every time a case passes is an offset from this one. Whole seconds, so that PostgreSQL's microsecond
    /// timestamps give back exactly the `Date`s that went in and `==` on model values holds.
    public var t0: Date

    public init(t0: Date = Date(timeIntervalSince1970: 1_900_000_000)) {
        self.t0 = t0
    }
}
