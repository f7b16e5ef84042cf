/// Finds where any of a fixed set of byte strings occurs in a text, in one pass over the text
/// whatever the number of strings (Aho-Corasick: a trie of the strings, and for each node the
/// longest proper suffix of its path that is also a path, to fall back to on a mismatch).
///
/// ``SecretSet`` masks with it: a recording of a body that issued thousands of tokens learns each
/// as a secret, and trying every token at every byte made such a recording take minutes (the
/// figure is in docs/dev/performance.md). No package this project resolves has such a finder.
final class ManyStringsFinder: Sendable {
    /// The next node from the root for each byte, or -1: most bytes of a text start nothing.
    private let fromRoot: [Int32]
    /// The trie, one entry a node (node 0 the root): its first child, its next sibling, the byte
    /// that leads to it, the node to fall back to, and the length of the longest string that ends
    /// at it (itself or by falling back), 0 when none does.
    private let firstChild: [Int32]
    private let nextSibling: [Int32]
    private let byte: [UInt8]
    private let fallback: [Int32]
    private let longestEnding: [Int32]

    /// A finder of `strings`; empty strings are left out.
    init(_ strings: [[UInt8]]) {
        var firstChild: [Int32] = [-1], nextSibling: [Int32] = [-1], byte: [UInt8] = [0], ending: [Int32] = [0]
        var fromRoot = [Int32](repeating: -1, count: 256)
        func child(of node: Int32, _ value: UInt8) -> Int32 {
            if node == 0 { return fromRoot[Int(value)] }
            var next = firstChild[Int(node)]
            while next >= 0, byte[Int(next)] != value { next = nextSibling[Int(next)] }
            return next
        }
        for string in strings where !string.isEmpty {
            var node: Int32 = 0
            for value in string {
                var next = child(of: node, value)
                if next < 0 {
                    next = Int32(byte.count)
                    byte.append(value)
                    firstChild.append(-1)
                    ending.append(0)
                    if node == 0 {
                        nextSibling.append(-1)
                        fromRoot[Int(value)] = next
                    } else {
                        nextSibling.append(firstChild[Int(node)])
                        firstChild[Int(node)] = next
                    }
                }
                node = next
            }
            ending[Int(node)] = Int32(string.count)
        }
        // Breadth first, so that a node's fallback, which is shallower, is known before it.
        var fallback = [Int32](repeating: 0, count: byte.count)
        var queue = fromRoot.filter { $0 >= 0 }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            var next = firstChild[Int(node)]
            while next >= 0 {
                var back = fallback[Int(node)]
                while back != 0, child(of: back, byte[Int(next)]) < 0 { back = fallback[Int(back)] }
                let target = child(of: back, byte[Int(next)])
                fallback[Int(next)] = target >= 0 && target != next ? target : 0
                ending[Int(next)] = max(ending[Int(next)], ending[Int(fallback[Int(next)])])
                queue.append(next)
                next = nextSibling[Int(next)]
            }
        }
        self.fromRoot = fromRoot
        self.firstChild = firstChild
        self.nextSibling = nextSibling
        self.byte = byte
        self.fallback = fallback
        self.longestEnding = ending
    }

    /// The parts of `text` the strings cover, in order: where occurrences overlap or touch, one
    /// range is their union.
    func covered(in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var node: Int32 = 0
        for index in text.indices {
            let value = text[index]
            while node != 0, step(from: node, value) < 0 { node = fallback[Int(node)] }
            node = node == 0 ? fromRoot[Int(value)] : step(from: node, value)
            if node < 0 {
                node = 0
                continue
            }
            let length = Int(longestEnding[Int(node)])
            guard length > 0 else { continue }
            var found = (index + 1 - length)..<(index + 1)
            // Ranges end in order, but a longer one can start before those it ends after.
            while let last = ranges.last, found.lowerBound <= last.upperBound {
                found = min(found.lowerBound, last.lowerBound)..<found.upperBound
                ranges.removeLast()
            }
            ranges.append(found)
        }
        return ranges
    }

    private func step(from node: Int32, _ value: UInt8) -> Int32 {
        var next = firstChild[Int(node)]
        while next >= 0, byte[Int(next)] != value { next = nextSibling[Int(next)] }
        return next
    }
}
