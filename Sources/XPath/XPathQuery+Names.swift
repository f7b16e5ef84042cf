internal import CLibXML2

extension XPathQuery {
    /// The names of the document's elements, each once, the first `limit` met: what a name in an
    /// expression that matched nothing (`//tittle`) may be a typo of. Parsed as ``evaluate(_:on:html:encoding:stop:)`` parses.
    public static func elementNames(on body: [UInt8], html: Bool, encoding: String? = nil, limit: Int = 256) throws(XPathError) -> [String] {
        _ = setUp
        wsh_xml_silence_errors_on_this_thread()
        let doc = try parse(body, html: html, encoding: encoding)
        defer { xmlFreeDoc(doc) }
        var names: [String] = []
        var seen: Set<String> = []
        var pending: [xmlNodePtr] = []
        if let root = xmlDocGetRootElement(doc) { pending.append(root) }
        // A stack of its own: a deep document costs no call stack.
        while let node = pending.popLast(), names.count < limit {
            if let name = node.pointee.name, seen.insert(String(cString: name)).inserted { names.append(String(cString: name)) }
            var child = node.pointee.children
            while let current = child {
                if current.pointee.type == XML_ELEMENT_NODE { pending.append(current) }
                child = current.pointee.next
            }
        }
        return names
    }

    /// The element names of an expression that is a path of plain name steps (`//title`,
    /// `/html/head/title/text()`, `//ul/li`); nil for any other (a predicate, an axis, a prefix, a function).
    public static func plainNameSteps(_ expression: String) -> [String]? {
        var text = expression.drop(while: \.isWhitespace)
        while text.last?.isWhitespace == true { text.removeLast() }
        if text.hasSuffix("/text()") { text = text.dropLast("/text()".count) }
        guard text.hasPrefix("/") else { return nil }
        let names = text.split(separator: "/", omittingEmptySubsequences: true)
        guard !names.isEmpty, !text.contains("///") else { return nil }
        for name in names {
            guard let first = name.first, first.isASCII, first.isLetter || first == "_",
                  name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") }) else { return nil }
        }
        return names.map(String.init)
    }
}
