import Testing
@testable import PaperTrading

@Suite struct AppendOnlyListTests {
    @Test func keepsEveryElementInPlaceAcrossItsChunks() {
        var list = AppendOnlyList<[Int]>()
        for value in 0..<10_000 { list.append([value]) }
        #expect(list.count == 10_000)
        for index in stride(from: 0, to: 10_000, by: 7) { list[index].append(-index) }
        // The last of the first chunk, the first of the second, one changed in the second, the last.
        #expect(list[4_095] == [4_095, -4_095] && list[4_096] == [4_096])
        #expect(list[4_102] == [4_102, -4_102] && list[9_999] == [9_999])
        #expect(list.map(\.first) == (0..<10_000).map { $0 })
        let elements = list.map(\.count).reduce(0, +)
        #expect(elements == 10_000 + 1_429)
        #expect(AppendOnlyList<Int>().map { $0 } == [])
    }
}
