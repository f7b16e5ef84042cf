import Targets

/// Comparisons in filters (RFC 9535 section 2.3.5.2.2). Nothing (nil) equals only Nothing; values
/// of different types are unequal and unordered; numbers compare exactly as decimals; strings by
/// their Unicode scalars; arrays and objects are equal when their contents are, deeply.
enum JSONPathComparison {
    static func holds(_ left: JSONValue?, _ comparison: JSONPathComparisonOperator, _ right: JSONValue?) -> Bool {
        switch comparison {
        case .equal: equal(left, right)
        case .notEqual: !equal(left, right)
        case .less: less(left, right)
        case .lessOrEqual: less(left, right) || equal(left, right)
        case .greater: less(right, left)
        case .greaterOrEqual: less(right, left) || equal(left, right)
        }
    }

    static func equal(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case (let left?, let right?): deeplyEqual(left, right)
        default: false
        }
    }

    /// Only numbers and strings are ordered.
    static func less(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left, right) {
        case (.number(let left)?, .number(let right)?):
            return compareNumbers(left, right) == .orderedAscending
        case (.string(let left)?, .string(let right)?):
            return left.unicodeScalars.lexicographicallyPrecedes(right.unicodeScalars)
        default:
            return false
        }
    }

    /// Two number literals compared exactly; literals too large for ``ExactNumber`` fall back to doubles.
    static func compareNumbers(_ left: String, _ right: String) -> NumberOrder {
        if let left = ExactNumber(left), let right = ExactNumber(right) {
            return left < right ? .orderedAscending : left == right ? .orderedSame : .orderedDescending
        }
        guard let left = Double(left), let right = Double(right) else { return .unordered }
        return left < right ? .orderedAscending : left == right ? .orderedSame : .orderedDescending
    }

    enum NumberOrder { case orderedAscending, orderedSame, orderedDescending, unordered }

    /// Structural equality with a stack of pairs still to compare: no recursion along the values' depth.
    static func deeplyEqual(_ left: JSONValue, _ right: JSONValue) -> Bool {
        var pending = [(left, right)]
        while let (left, right) = pending.popLast() {
            switch (left, right) {
            case (.null, .null):
                continue
            case (.bool(let left), .bool(let right)):
                guard left == right else { return false }
            case (.number(let left), .number(let right)):
                guard compareNumbers(left, right) == .orderedSame else { return false }
            case (.string(let left), .string(let right)):
                guard ScalarText.equal(left, right) else { return false }
            case (.array(let left), .array(let right)):
                guard left.count == right.count else { return false }
                pending.append(contentsOf: zip(left, right))
            case (.object(let left), .object(let right)):
                // Keys by their UTF-8 bytes (no normalization); a repeated key counts once, with its last value.
                let leftMembers = members(left), rightMembers = members(right)
                guard leftMembers.count == rightMembers.count else { return false }
                for (key, value) in leftMembers {
                    guard let other = rightMembers[key] else { return false }
                    pending.append((value, other))
                }
            default:
                return false
            }
        }
        return true
    }

    private static func members(_ members: [JSONMember]) -> [[UInt8]: JSONValue] {
        var byKey: [[UInt8]: JSONValue] = [:]
        for member in members { byKey[Array(member.key.utf8)] = member.value }
        return byKey
    }
}
