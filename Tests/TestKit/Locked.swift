import Synchronization

/// A value behind a lock, shared by a test, the objects it builds and the closures and threads they start. A
/// `Mutex` cannot be copied, so it cannot be both an object's property and a value handed to a closure; this
/// class is a reference to one.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// A copy of the value now.
    public var value: Value { mutex.withLock { $0 } }

    /// Reads and changes the value in one step under the lock. No setter: `value += 1` would be a read and a
    /// write, and another thread could come between them.
    public func update<R>(_ body: (inout Value) -> R) -> R {
        mutex.withLock { body(&$0) }
    }
}
