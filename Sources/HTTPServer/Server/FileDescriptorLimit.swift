import Foundation

/// The process's open-file limit (RLIMIT_NOFILE), which bounds how many connections a server can hold: each one
/// is a socket.
public enum FileDescriptorLimit {
    /// The soft limit in force.
    public static var current: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        return Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft limit to `wanted` if it is lower: up to the hard limit, and past it when the process may
    /// raise that too (root with CAP_SYS_RESOURCE). Never lowers it. Returns the soft limit now in force.
    @discardableResult
    public static func raise(toAtLeast wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let target = rlim_t(max(0, wanted))
        guard limit.rlim_cur < target else { return Int(clamping: limit.rlim_cur) }
        if limit.rlim_max != rlim_t.max /* RLIM_INFINITY */, limit.rlim_max < target {
            var raised = rlimit(rlim_cur: target, rlim_max: target)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return Int(clamping: target) }
        }
        var soft = rlimit(rlim_cur: min(target, limit.rlim_max), rlim_max: limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &soft)
        return current
    }
}
