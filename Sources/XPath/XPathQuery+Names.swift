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

extension XPathQuery {
    /// The names of HTML's elements, current and obsolete (WHATWG HTML's index and its list of
    /// obsolete elements), and of the SVG and MathML roots and SVG's common ones: an absent one
    /// (`//table`, `//tbody`, `//time`) is a page without it, not a typo of a name close to it.
    public static let htmlElementNames: Set<String> = [
        "a", "abbr", "acronym", "address", "applet", "area", "article", "aside", "audio", "b", "base", "basefont", "bdi", "bdo",
        "bgsound", "big", "blink", "blockquote", "body", "br", "button", "canvas", "caption", "center", "cite", "code", "col",
        "colgroup", "data", "datalist", "dd", "del", "details", "dfn", "dialog", "dir", "div", "dl", "dt", "em", "embed",
        "fieldset", "figcaption", "figure", "font", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6",
        "head", "header", "hgroup", "hr", "html", "i", "iframe", "image", "img", "input", "ins", "isindex", "kbd", "keygen",
        "label", "legend", "li", "link", "listing", "main", "map", "mark", "marquee", "math", "menu", "menuitem", "meta",
        "meter", "multicol", "nav", "nextid", "nobr", "noembed", "noframes", "noscript", "object", "ol", "optgroup", "option",
        "output", "p", "param", "picture", "plaintext", "portal", "pre", "progress", "q", "rb", "rp", "rt", "rtc", "ruby", "s",
        "samp", "script", "search", "section", "select", "slot", "small", "source", "spacer", "span", "strike", "strong",
        "style", "sub", "summary", "sup", "svg", "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "time",
        "title", "tr", "track", "tt", "u", "ul", "var", "video", "wbr", "xmp",
        // SVG's common elements, met inline in pages.
        "circle", "clipPath", "defs", "desc", "ellipse", "filter", "foreignObject", "g", "line", "linearGradient", "mask",
        "path", "pattern", "polygon", "polyline", "radialGradient", "rect", "stop", "symbol", "text", "tspan", "use",
    ]
}
