/// Something that can be cancelled: an animation, an observation. Mapbox's `Cancelable`.
public protocol Cancelable: AnyObject {
    func cancel()
}

/// A cancelable built from a closure; cancelling twice runs it once.
public final class BlockCancelable: Cancelable {
    private var block: (() -> Void)?
    public init(_ block: @escaping () -> Void) { self.block = block }
    public func cancel() { let b = block; block = nil; b?() }
}

/// A synchronous event stream: observers are called in the order they subscribed, on the
/// simulation's thread, at the moment the event is sent.
public final class Signal<Payload> {
    private var observers: [(id: Int, handler: (Payload) -> Void)] = []
    private var nextID = 0

    public init() {}

    /// Subscribes `handler`; cancel the result to unsubscribe.
    @discardableResult
    public func observe(_ handler: @escaping (Payload) -> Void) -> Cancelable {
        let id = nextID
        nextID += 1
        observers.append((id, handler))
        return BlockCancelable { [weak self] in self?.observers.removeAll { $0.id == id } }
    }

    /// Number of live observers (tests check that none leak).
    public var observerCount: Int { observers.count }

    /// Calls every observer with `payload`.
    public func send(_ payload: Payload) {
        if observers.isEmpty { return }
        for o in observers { o.handler(payload) }
    }
}
