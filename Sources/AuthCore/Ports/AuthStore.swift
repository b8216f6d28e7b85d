/// Every store port at once: LatchStore implements them on one PostgreSQL pool.
public typealias AuthStore = UserStore & TokenStore & SessionStore & MailOutbox & RateLimitStore
    & SignInFailureStore & TrustedDeviceStore & AccountStore & AuditLog
