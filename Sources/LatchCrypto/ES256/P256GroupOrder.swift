import COpenSSL

/// The order n of P-256's base point, and ⌊n/2⌋, as OpenSSL numbers: what a signature's r and s are compared with.
///
/// ECDSA has two valid signatures for every one it makes: (r, s) and (r, n − s). Left open, anyone holding a token
/// can write a second text for it, and whatever is kept per token text (latchd's cache of checked signatures, a
/// deny-list elsewhere) takes that text for another token. Latch writes and accepts only the low one, s ≤ ⌊n/2⌋
/// (as Bitcoin's BIP 146 does): n is odd, so exactly one of s and n − s is that low.
///
/// Made once and only read after (BN_cmp and BN_sub take these numbers as const), so one instance serves every
/// thread.
final class P256GroupOrder: @unchecked Sendable {
    /// nil only if OpenSSL could not build the group at first use: then signing fails and every signature is
    /// refused, rather than let a high s through.
    static let shared = P256GroupOrder()

    private let order: OpaquePointer
    private let halfOrder: OpaquePointer

    /// Taken from OpenSSL's own group rather than typed in: one constant fewer that could be mistyped.
    private init?() {
        guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else {
            ERR_clear_error()
            return nil
        }
        defer { EC_GROUP_free(group) }
        guard let order = BN_dup(EC_GROUP_get0_order(group)) else {
            ERR_clear_error()
            return nil
        }
        guard let half = BN_new(), BN_rshift1(half, order) == 1 else {
            BN_free(order)
            ERR_clear_error()
            return nil
        }
        self.order = order
        halfOrder = half
    }

    deinit {
        BN_free(order)
        BN_free(halfOrder)
    }

    /// Whether (r, s) is a signature Latch accepts: 1 ≤ r < n and 1 ≤ s ≤ ⌊n/2⌋ (1 ≤ s < n `allowingHighS`).
    /// OpenSSL's verify refuses zero and values past n itself, but takes a high s, so the upper bound on s exists
    /// only here.
    func accepts(r: OpaquePointer, s: OpaquePointer, allowingHighS: Bool = false) -> Bool {
        let sInRange = allowingHighS ? BN_cmp(s, order) < 0 : BN_cmp(s, halfOrder) <= 0
        return BN_is_zero(r) == 0 && BN_cmp(r, order) < 0 && BN_is_zero(s) == 0 && sInRange
    }

    /// Whether s is past ⌊n/2⌋: a signature whose `twin` is the form Latch accepts.
    func isHigh(_ s: OpaquePointer) -> Bool {
        BN_cmp(s, halfOrder) > 0
    }

    /// n − s, the s of the same signature's other form: a new number the caller frees; nil if OpenSSL could not
    /// allocate it.
    func twin(of s: OpaquePointer) -> OpaquePointer? {
        guard let twin = BN_new() else { return nil }
        guard BN_sub(twin, order, s) == 1 else {
            BN_free(twin)
            ERR_clear_error()
            return nil
        }
        return twin
    }
}
