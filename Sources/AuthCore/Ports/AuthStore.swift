/// Every store port at once, and the unit of work that binds them to one transaction: LatchStore implements them
/// on one PostgreSQL pool.
public typealias AuthStore = UserStore & TokenStore & SessionStore & MailOutbox & RateLimitStore
    & SignInFailureStore & TrustedDeviceStore & AccountStore & AuditLog & AdminStore & DeferredMailQueue
    & ReauthenticationStore & SecondFactorStore & PasskeyStore & IdentityStore & AdminAPIKeyStore & UnitOfWork
