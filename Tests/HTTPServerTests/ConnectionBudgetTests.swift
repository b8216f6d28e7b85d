import HTTPServer
import Testing

@Suite struct ConnectionBudgetTests {
    @Test func keepsTheBudgetWhenTheLimitCanBeRaised() {
        var asked: [Int] = []
        let budget = ConnectionBudget.fitting(10_000, reservedDescriptors: 100) { wanted in
            asked.append(wanted)
            return wanted
        }
        #expect(asked == [10_100])
        #expect(budget == ConnectionBudget(requested: 10_000, granted: 10_000, descriptorLimit: 10_100))
        #expect(!budget.isLowered)
    }

    @Test func lowersTheBudgetToWhatTheLimitHolds() {
        let budget = ConnectionBudget.fitting(10_000, reservedDescriptors: 100) { _ in 1_024 }
        #expect(budget == ConnectionBudget(requested: 10_000, granted: 924, descriptorLimit: 1_024))
        #expect(budget.isLowered)
        #expect(ConnectionBudget.fitting(10_000, reservedDescriptors: 100) { _ in 50 }.granted == 1)
    }

    @Test func theRealLimitIsNeverLowered() {
        let before = FileDescriptorLimit.current
        #expect(FileDescriptorLimit.raise(toAtLeast: 16) == before)
        #expect(FileDescriptorLimit.raise(toAtLeast: before) == before)
        #expect(FileDescriptorLimit.current == before)
    }
}
