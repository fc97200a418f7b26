// Minimal reproducer of a LeakSanitizer false positive (issue 14; see Tools/lsan-suppressions.txt).
//
// An `indirect enum` tree — the shape of the style expression trees `ExpressionCompiler.compile`
// builds (`indirect enum ExprNode`) — reachable from a process-lifetime global is reported by
// LeakSanitizer as "Direct leak" at exit. Swift keeps the case tag of a multi-payload enum in the
// spare bits of the box pointer, so the stored word is not a plain pointer and LSan's conservative
// scan does not see the boxes as referenced. `Tools/LSanRepro/run` shows three builds:
//   global   (this file)                     → LSan reports the boxes as leaked;
//   local    (-D LOCAL: the tree is dropped)  → no report: every box is freed, so nothing leaks;
//   boxed    (-D BOXED: class boxes instead)  → no report: same data, plain pointers.
#if BOXED
final class Box { let node: Node; init(_ n: Node) { node = n } }
enum Node {
    case leaf(Double)
    case name(String)
    case pair(Box, Box)
    case list([Node])
}
func pair(_ a: Node, _ b: Node) -> Node { .pair(Box(a), Box(b)) }
func children(_ a: Box) -> Node { a.node }
#else
indirect enum Node {
    case leaf(Double)
    case name(String)
    case pair(Node, Node)
    case list([Node])
}
func pair(_ a: Node, _ b: Node) -> Node { .pair(a, b) }
func children(_ a: Node) -> Node { a }
#endif

func build(_ depth: Int) -> Node {
    depth == 0 ? .leaf(0) : .list([pair(build(depth - 1), .name("n\(depth)")), build(depth - 1)])
}

func count(_ n: Node) -> Int {
    switch n {
    case .leaf, .name: return 1
    case .pair(let a, let b): return count(children(a)) + count(children(b))
    case .list(let xs): return xs.reduce(1) { $0 + count($1) }
    }
}

struct Holder { let root: Node }

#if LOCAL
func once() -> Int { count(Holder(root: build(6)).root) }
print("nodes:", once())
#else
let shared = Holder(root: build(6))  // like the test suite's `sharedWorldStyle`
print("nodes:", count(shared.root))
#endif
