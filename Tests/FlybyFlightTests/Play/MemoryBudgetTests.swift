import FlybyFlight
import Foundation
import Testing

/// The render-ahead window fits the memory budget (issue 14).
@Suite struct MemoryBudgetTests {
    @Test func aRoomyBudgetKeepsTheFullWindow() throws {
        let plan = try MemoryBudget(mebibytes: 4096).plan(width: 1280, height: 720, threads: 4, encodedBytes: 1280 * 720 * 3 / 2)
        #expect(plan == MemoryBudget.Plan(threads: 4, window: 10))
    }

    @Test func aTightBudgetShrinksTheWindowAndTheThreads() throws {
        // 16384² frames are 1 GiB of pixels each: 6 GiB holds a few, never 2·16+2 = 34.
        let budget = MemoryBudget(mebibytes: 6 * 1024)
        let plan = try budget.plan(width: 16384, height: 16384, threads: 16, encodedBytes: 16384 * 16384 * 3 / 2)
        #expect(plan.window >= 1 && plan.window <= 3)
        #expect(plan.threads <= plan.window)
        let frameBytes = 16384 * 16384 * 4 + 16384 * 16384 * 3 / 2
        let used = MemoryBudget.baseBytes + plan.threads * (MemoryBudget.perThreadBytes + 16384 * 16384) + (plan.window + 1) * frameBytes
        #expect(used <= budget.bytes)
    }

    @Test func aFrameThatCannotFitIsAnErrorSayingWhatIsNeeded() {
        #expect {
            _ = try MemoryBudget(mebibytes: 512).plan(width: 16384, height: 16384, threads: 1)
        } throws: { error in
            guard let e = error as? MemoryBudgetError else { return false }
            return e.needed > e.budget && e.description.contains("512 MiB") && e.description.contains("--memory")
        }
    }

    @Test func theDefaultIsAtMostAQuarterOfPhysicalMemory() {
        #expect(MemoryBudget.default.bytes > 0)
        #expect(UInt64(MemoryBudget.default.bytes) <= ProcessInfo.processInfo.physicalMemory / 4)
    }
}
