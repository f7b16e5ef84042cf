// Internal: the headers bring the system's ICU types, which clash with Foundation's own ICU in any module that imports both.
internal import CLibXML2

/// XPath 1.0 on an HTML or XML body, evaluated by the system's libxml2.
///
/// Safety of hostile bodies: nothing on disk or on the network is read (external entity declarations
/// are dropped, the external DTD subset is skipped, no XML_PARSE_DTDLOAD/DTDVALID, XML_PARSE_NONET,
/// and an entity loader that refuses every URL), internal entities are expanded while parsing where
/// libxml2 bounds their amplification (no XML_PARSE_HUGE: billion laughs and quadratic blowup fail
/// in well under a second), and evaluation stops after `operationLimit` XPath operations.
/// Requires libxml2 2.9.11 or later (the XPath context's opLimit); Debian 12 has 2.9.14.
/// Nothing is written to standard error: libxml2's messages become `XPathError`s or are dropped.
public enum XPathQuery {
    /// The result: a node-set as its nodes' string values (attributes' values, elements' text), or a
    /// number (as its literal text: 3, 2.5, NaN avoided), string or boolean.
    public enum Result: Sendable, Equatable {
        case nodes([String]), number(String), string(String), bool(Bool)
    }

    /// At most this many XPath operations per evaluation: a quadratic expression such as
    /// `//a[count(//p) > 0]` on a 7 MB page ends after about 4 s with "Operation limit exceeded".
    /// (libxml2 does not count the work of merging node-sets, so `//*//*//*` on that page still runs
    /// for minutes; the expression is the user's own.)
    static let operationLimit: UInt = 100_000_000

    /// Evaluates `expression` with the document node as the context node. Prefixes declared on the
    /// root element (`xmlns:x="…"`) may be used in the expression, and its default namespace
    /// (`xmlns="…"`) as `_:`, as Hurl names it (`//_:svg/_:title`): XPath 1.0 has no other way to
    /// name an element in a default namespace but `//*[local-name()='item']`.
    /// `encoding` overrides what the body declares (a BOM, `<meta charset>`, `<?xml encoding?>`):
    /// `UTF-8` for text already decoded; nil lets the body say.
    /// `stop` ends the evaluation early from another thread (``XPathStop``); it then fails with
    /// "stopped".
    public static func evaluate(_ expression: String, on body: [UInt8], html: Bool, encoding: String? = nil,
                                stop: XPathStop? = nil) throws(XPathError) -> Result {
        _ = setUp
        // Errors are recorded (the parser's lastError, xmlGetLastError) and none reaches standard error.
        wsh_xml_silence_errors_on_this_thread()

        let doc = try parse(body, html: html, encoding: encoding)
        defer { xmlFreeDoc(doc) }

        guard let context = xmlXPathNewContext(doc) else {
            throw XPathError("out of memory evaluating the XPath expression")
        }
        defer { xmlXPathFreeContext(context) }
        context.pointee.opLimit = operationLimit
        stop?.attach(context)
        defer { stop?.attach(nil) }
        // The document node is the context node, as in xmllint --xpath: `title` and `/title` agree at the top.
        context.pointee.node = UnsafeMutableRawPointer(doc).assumingMemoryBound(to: xmlNode.self)
        registerRootNamespaces(of: doc, in: context)

        // A NUL would end the C string early and evaluate a different expression.
        guard !expression.utf8.contains(0) else {
            throw XPathError("invalid XPath expression '\(quoted(expression))': it contains a NUL character")
        }
        xmlResetLastError()
        guard let compiled = xmlXPathCtxtCompile(context, expression) else {
            throw XPathError("invalid XPath expression '\(quoted(expression))'" + lastErrorDetail())
        }
        defer { xmlXPathFreeCompExpr(compiled) }
        xmlResetLastError()
        guard let object = xmlXPathCompiledEval(compiled, context) else {
            if stop?.isStopped == true { throw XPathError("the XPath evaluation was stopped") }
            throw XPathError("cannot evaluate XPath expression '\(quoted(expression))'" + lastErrorDetail())
        }
        defer { xmlXPathFreeObject(object) }

        switch object.pointee.type {
        case XPATH_NODESET, XPATH_XSLT_TREE:
            var values: [String] = []
            if let set = object.pointee.nodesetval, let table = set.pointee.nodeTab {
                let count = Int(set.pointee.nodeNr)
                values.reserveCapacity(count)
                for index in 0..<count {
                    values.append(takeString(xmlXPathCastNodeToString(table[index])))
                }
            }
            return .nodes(values)
        case XPATH_NUMBER:
            return .number(Self.text(of: object.pointee.floatval))
        case XPATH_STRING:
            return .string(object.pointee.stringval.map { String(cString: $0) } ?? "")
        case XPATH_BOOLEAN:
            return .bool(object.pointee.boolval != 0)
        default:
            throw XPathError("XPath expression '\(quoted(expression))' gave a result that is not a node-set, number, string or boolean")
        }
    }

    // MARK: - Parsing

    static func parse(_ body: [UInt8], html: Bool, encoding: String?) throws(XPathError) -> xmlDocPtr {
        guard body.count <= Int(Int32.max) else {
            throw XPathError("the body is too large to parse as \(html ? "HTML" : "XML") (over 2 GiB)")
        }
        if html {
            // The HTML parser recovers from anything (unclosed tags, &nbsp;, bare attributes); it reads
            // the encoding from a BOM or <meta charset>, else UTF-8, falling back to Latin-1 on bad UTF-8.
            let options = Int32(bitPattern: HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue
                | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue)
            guard let parser = htmlNewParserCtxt() else { throw XPathError("out of memory parsing the body as HTML") }
            defer { htmlFreeParserCtxt(parser) }
            let doc = body.withUnsafeBufferPointer { bytes -> xmlDocPtr? in
                bytes.baseAddress.flatMap { base in
                    base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
                        withOptionalCString(encoding) { encoding in htmlCtxtReadMemory(parser, text, Int32(bytes.count), nil, encoding, options) }
                    }
                }
            }
            let error = parser.pointee.lastError
            // The parser stops only on what it cannot recover from: an encoding this machine cannot
            // decode (one not built in and missing from iconv) or running out of memory.
            if parser.pointee.disableSAX != 0, error.code != 0 {
                if let doc { xmlFreeDoc(doc) }
                throw XPathError(encodingProblem(error) ?? "the body could not be parsed as HTML: \(trimmed(error.message) ?? "unknown error")")
            }
            // An empty (or all-blank) body is an empty document: //p finds nothing, count(//p) is 0.
            if let doc { return doc }
            if let empty = htmlNewDocNoDtD(nil, nil) { return empty }
            throw XPathError("out of memory parsing the body as HTML")
        }

        guard let parser = xmlNewParserCtxt(), let sax = parser.pointee.sax else {
            throw XPathError("out of memory parsing the body as XML")
        }
        defer { xmlFreeParserCtxt(parser) }
        // This parser's own SAX handler: external entities are never declared (so `&xxe;` is an
        // undefined entity) and an external DTD subset is never loaded.
        sax.pointee.entityDecl = declareInternalEntitiesOnly
        sax.pointee.externalSubset = nil
        // NOENT substitutes (internal) entities while parsing, where libxml2 bounds their amplification
        // (billion laughs, quadratic blowup: "Detected an entity reference loop"). Without it the
        // references stay in the tree and an XPath string value would expand them unbounded.
        // NONET, no DTDLOAD/DTDVALID, and the refusing entity loader keep files and network out.
        let options = Int32(bitPattern: XML_PARSE_NOENT.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_COMPACT.rawValue)
        // An empty array may have no storage: libxml2 gets a real pointer to zero bytes all the same.
        let storage = body.isEmpty ? [0] : body
        let doc = storage.withUnsafeBufferPointer { bytes -> xmlDocPtr? in
            bytes.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
                    withOptionalCString(encoding) { encoding in xmlCtxtReadMemory(parser, text, Int32(body.count), nil, encoding, options) }
                }
            }
        }
        let error = parser.pointee.lastError
        if parser.pointee.wellFormed == 0 || doc == nil {
            if let doc { xmlFreeDoc(doc) }
            if let problem = encodingProblem(error) { throw XPathError(problem) }
            let line = error.line > 0 ? "line \(error.line): " : ""
            let message = trimmed(error.message) ?? "unknown error"
            throw XPathError("the body is not well-formed XML: \(line)\(message)")
        }
        guard let doc else { throw XPathError("the body is not well-formed XML") }
        return doc
    }

    /// "the body's character encoding is not supported: Unsupported encoding Shift_JIS", for that error only.
    private static func encodingProblem(_ error: xmlError) -> String? {
        guard error.code == Int32(XML_ERR_UNSUPPORTED_ENCODING.rawValue) else { return nil }
        return "the body's character encoding is not supported: \(trimmed(error.message) ?? "unknown encoding")"
    }

    /// Lets the expression use the prefixes declared on the root element (`xmlns:dc="…"` → `//dc:title`),
    /// and `_` for its default namespace.
    private static func registerRootNamespaces(of doc: xmlDocPtr, in context: xmlXPathContextPtr) {
        var namespace = xmlDocGetRootElement(doc)?.pointee.nsDef
        while let current = namespace {
            if let href = current.pointee.href {
                if let prefix = current.pointee.prefix {
                    _ = xmlXPathRegisterNs(context, prefix, href)
                } else {
                    _ = xmlXPathRegisterNs(context, "_", href)
                }
            }
            namespace = current.pointee.next
        }
    }

    // MARK: - libxml2 plumbing

    /// Once per process: initialise libxml2 and refuse every external entity, DTD or XInclude URL.
    static let setUp: Void = {
        xmlInitParser()
        xmlSetExternalEntityLoader(refuseExternalEntity)
    }()

    private static let refuseExternalEntity: xmlExternalEntityLoader = { _, _, _ in nil }

    /// Passes `<!ENTITY name "text">` (general or parameter) on to libxml2 and drops every entity
    /// declared with SYSTEM or PUBLIC, so no reference can ever name a file or URL to load.
    private static let declareInternalEntitiesOnly: entityDeclSAXFunc = { context, name, type, publicID, systemID, content in
        let kind = UInt32(bitPattern: type)
        guard kind == XML_INTERNAL_GENERAL_ENTITY.rawValue || kind == XML_INTERNAL_PARAMETER_ENTITY.rawValue,
              publicID == nil, systemID == nil else { return }
        xmlSAX2EntityDecl(context, name, type, publicID, systemID, content)
    }

    private static func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }

    /// A libxml2-allocated UTF-8 string as a Swift String, freeing it.
    /// A number's shortest text that reads back as the same double (`1234567890123456`,
    /// `0.30000000000000004`), as `| toFloat` writes one; libxml2's own cast keeps 15 digits, so
    /// `1234567890123456` read as `1234567890123460`. NaN and Infinity as XPath writes them.
    static func text(of number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == number.rounded(), abs(number) < 1e18 { return String(Int64(number)) }
        return "\(number)"
    }

    private static func takeString(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        defer { wsh_xml_free(pointer) }
        return String(cString: pointer)
    }

    /// libxml2's message without trailing blanks, and without advice about parser options the
    /// user cannot set ("... use XML_PARSE_HUGE option").
    private static func trimmed(_ message: UnsafeMutablePointer<CChar>?) -> String? {
        guard let message else { return nil }
        var text = String(cString: message)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        if let advice = text.firstRange(of: " use XML_PARSE_HUGE option") { text.removeSubrange(advice.lowerBound...) }
        if text.hasSuffix(",") { text.removeLast() }
        return text.isEmpty ? nil : text
    }

    /// An expression as a message quotes it: cut to 60 characters.
    private static func quoted(_ expression: String) -> String {
        expression.count <= 60 ? expression : expression.prefix(60) + "…"
    }

    /// ": Invalid expression", from the error libxml2 recorded for this thread, or "".
    private static func lastErrorDetail() -> String {
        guard let error = xmlGetLastError() else { return "" }
        return trimmed(error.pointee.message).map { ": \($0)" } ?? ""
    }
}

/// Why an XPath query could not be answered, in the user's terms.
public struct XPathError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
