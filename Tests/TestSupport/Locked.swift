import Foundation

/// A value behind a pthread mutex (NSLock). Not `Synchronization.Mutex`: on Linux that one
/// locks with futexes in uninstrumented code, so ThreadSanitizer cannot see its ordering and
/// reports races on the value it protects (`make test-sanitizers`).
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
