/// Every case of the store contract, one list for both stores.
public enum StoreContract {
    public static let cases: [ContractCase] =
        UserContract.cases + TokenRuleContract.cases + TokenContract.cases + EmailChangeContract.cases
        + LimitContract.cases + SignInContract.cases + SessionContract.cases + AccountContract.cases
        + AdminContract.cases + UnitOfWorkContract.cases + DeferredMailContract.cases + EmailSignInContract.cases
        + ReauthenticationContract.cases + SecondFactorContract.cases + PasskeyContract.cases
        + IdentityContract.cases + AdminAPIKeyContract.cases
}
