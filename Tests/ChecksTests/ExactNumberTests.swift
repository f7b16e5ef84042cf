import Testing
@testable import Checks

@Suite struct ExactNumberTests {
    private func number(_ text: String) throws -> ExactNumber { try #require(ExactNumber(text), "\(text)") }

    @Test func comparesPastWhatADoubleHolds() throws {
        #expect(try number("9007199254740993") != number("9007199254740992"))
        #expect(try number("9007199254740992") < number("9007199254740993"))
        #expect(try number("123456789012345678901234567890") > number("123456789012345678901234567889"))
        #expect(try number("0.1000000000000000000001") > number("0.1"))
    }

    @Test(arguments: [("1.0", "1"), ("1e3", "1000"), ("-0", "0"), ("0.50", ".5"), ("+7", "7"), ("1E-2", "0.01"), ("00012", "12")])
    func equalWhateverTheSpelling(left: String, right: String) throws {
        #expect(try number(left) == number(right))
    }

    @Test(arguments: [("-2", "-1"), ("-1", "0"), ("0", "0.001"), ("-10", "-9.99"), ("9.99", "10"), ("1e-1000000", "1"), ("1", "1e999999999")])
    func ordersSignsAndMagnitudes(smaller: String, larger: String) throws {
        #expect(try number(smaller) < number(larger))
        #expect(try !(number(larger) < number(smaller)))
    }

    @Test(arguments: ["", "-", ".", "abc", "1,5", "inf", "NaN", "0x1F", "1e", "1e+", "--1", "1.2.3", " 1", "1e1000000001"])
    func refusesWhatIsNotADecimal(text: String) {
        #expect(ExactNumber(text) == nil)
    }
}
