/// How many connections a server can really hold: each is a file descriptor, so the budget has to fit under the
/// open-file limit next to the descriptors the rest of the process needs.
public struct ConnectionBudget: Sendable, Equatable {
    /// What was asked for.
    public var requested: Int
    /// What fits: `requested`, or less when the open-file limit could not be raised far enough.
    public var granted: Int
    /// The open-file limit (soft RLIMIT_NOFILE) in force afterwards.
    public var descriptorLimit: Int

    public init(requested: Int, granted: Int, descriptorLimit: Int) {
        self.requested = requested
        self.granted = granted
        self.descriptorLimit = descriptorLimit
    }

    public var isLowered: Bool { granted < requested }

    /// Raises the open-file limit to hold `requested` connections plus `reservedDescriptors`, or lowers the budget
    /// to what the limit allows (at least 1).
    /// - Parameter raiseLimit: raises the limit to at least its argument and returns the limit then in force.
    public static func fitting(
        _ requested: Int, reservedDescriptors: Int,
        raiseLimit: (Int) -> Int = { FileDescriptorLimit.raise(toAtLeast: $0) }
    ) -> ConnectionBudget {
        let limit = raiseLimit(requested + reservedDescriptors)
        return ConnectionBudget(
            requested: requested, granted: max(1, min(requested, limit - reservedDescriptors)), descriptorLimit: limit)
    }
}
