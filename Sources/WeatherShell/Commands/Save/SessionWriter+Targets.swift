import Foundation
import Targets

extension SessionWriter {
    /// Targets of bundled packs as `use NAME` (and `forget` for those of its targets the session
    /// no longer has), then every other target as its declaration's text, with the paths of its
    /// `sample`, `body @FILE` and multipart `key@FILE` words made right for the saved file's place.
    mutating func writeTargets() {
        beginSection()
        let targets = session.targets.all
        var packs: [String] = []
        for target in targets where Self.isBundled(target) {
            if let pack = Self.packName(target.declaration.file.name), !packs.contains(pack) { packs.append(pack) }
        }
        for pack in packs {
            add("use \(pack)", leavingOut: "use \(pack)")
            for name in Self.targetNames(inPack: pack) where session.targets[name] == nil {
                add("forget \(name)", leavingOut: "forget \(name)")
            }
        }
        for target in targets where !Self.isBundled(target) {
            // A credential typed as text (`query appid=k`, a URL's password), as the history judges
            // them: the target is written as a comment, with `***` for the credential. A field as
            // its OpenAPI document wrote it holds the document's public values (a default named
            // `keyword`, an example answer with an `access_token`), not one typed: it is not judged.
            let documented = Self.documentedFields(of: target)
            let hidden = targetText(target) { text, original in
                documented.contains(original) ? text : LiteralCredentials.hidden(in: text)
            }
            addUnlessTyped(targetText(target), hidden: hidden, what: "target \(target.name)",
                           because: "its declaration holds a secret")
        }
    }

    /// `reactor` declarations as written, in the order they were declared.
    mutating func writeReactors() {
        beginSection()
        for name in session.reactorOrder {
            guard let reactor = session.reactors[name] as? DeclaredReactorCommand else { continue }
            let declaration = reactor.declaration
            // A credential typed in it (`state api_key = "k"`) is no more written than a `let`'s.
            addUnlessTyped(declaration.file.text(declaration.span.start..<declaration.span.end),
                           what: "reactor \(name)", because: "its declaration holds a secret")
        }
    }

    /// The declaration's text with each file path rewritten by ``savedPath(_:from:)``, and
    /// `yields` after the `base` of a target whose host yields to `set base` (a pack's, an
    /// imported one), so that it still does once sourced; the rest, comments and layout included,
    /// as written. `field` makes each field's text, given it and the field's text as declared.
    func targetText(_ declared: DeclaredTarget, field transform: (String, String) -> String = { text, _ in text }) -> String {
        let declaration = declared.declaration
        let file = declaration.file
        var result = ""
        var position = declaration.span.start
        for field in declaration.fields {
            result += file.text(position..<field.span.start)
            var text = ""
            position = field.span.start
            if declared.fromPack, field.name == "base", field.arguments.count == 1 {
                text = file.text(position..<field.arguments[0].span.end) + " yields"
                position = field.arguments[0].span.end
            }
            for (index, word) in field.arguments.enumerated() {
                guard let rewritten = rewrittenPath(field.name, index: index, word: word, in: file) else { continue }
                text += file.text(position..<word.span.start) + rewritten
                position = word.span.end
            }
            result += transform(text + file.text(position..<field.span.end), file.text(field.span.start..<field.span.end))
            position = field.span.end
        }
        return result + file.text(position..<declaration.span.end)
    }

    /// The texts of the fields `use openapi` wrote for the target from its document, which a
    /// target declared again (`edit`, `set record`, `source`) keeps with what the document says of it.
    static func documentedFields(of target: DeclaredTarget) -> Set<String> {
        guard let text = target.openAPI?.operation.declaration,
              case .target(let declaration)? = try? Parser.parse(SourceFile(name: "<openapi>", directory: "", text: text)).statements.first?.kind
        else { return [] }
        return Set(declaration.fields.map { declaration.file.text($0.span.start..<$0.span.end) })
    }

    /// `@path`, `key@path`: a file word written again with its path for the saved file; nil when the
    /// word names no file, refers to variables (written as it is), or needs no change.
    private func rewrittenPath(_ field: String, index: Int, word: Word, in file: SourceFile) -> String? {
        guard let literal = word.literal else { return nil }
        let prefix: String
        let path: String
        if (field == "sample" && index == 0 || field == "body") && word.parts.first?.quoted == false, literal.hasPrefix("@") {
            prefix = "@"
            path = String(literal.dropFirst())
        } else if field == "multipart", case .parameter(let name, .file(let named)?)? = ArgumentSyntax(literal, allowFiles: true, equalsAtIsFile: word.writesFileAfterEquals) {
            prefix = name + "@"
            path = named
        } else {
            return nil
        }
        let rewritten = prefix + Run.quoted(savedPath(path, from: file.directory))
        return rewritten == file.text(word.span.start..<word.span.end) ? nil : rewritten
    }

    /// A path given in a file of `fileDirectory`, relative to the saved file's directory when it
    /// is under it, else absolute.
    func savedPath(_ path: String, from fileDirectory: String) -> String {
        // A bundled pack's file is inside wsh, not on disk: named as `<bundled>/packs/PATH`.
        if path.hasPrefix(BundledPacks.directory + "/") { return path }
        if fileDirectory == BundledPacks.directory, BundledPacks.file(path, directory: fileDirectory) != nil {
            return BundledPacks.directory + "/" + path
        }
        let full = Run.path(path, relativeTo: fileDirectory)
        let absolute = URL(fileURLWithPath: full).standardizedFileURL.path
        let base = URL(fileURLWithPath: directory).standardizedFileURL.path
        return absolute.hasPrefix(base + "/") ? String(absolute.dropFirst(base.count + 1)) : absolute
    }

    /// Whether the target is as a bundled pack declared it (`use` writes it again); one that
    /// `edit` changed is the user's, and is written as text.
    static func isBundled(_ target: DeclaredTarget) -> Bool {
        target.declaration.file.directory == BundledPacks.directory && packName(target.declaration.file.name) != nil
    }

    /// `open-meteo` for the file name `<pack open-meteo>` that `use` gives a bundled pack.
    static func packName(_ fileName: String) -> String? {
        guard fileName.hasPrefix("<pack "), fileName.hasSuffix(">") else { return nil }
        return String(fileName.dropFirst(6).dropLast())
    }

    /// The targets a bundled pack declares.
    static func targetNames(inPack pack: String) -> [String] {
        guard let text = BundledPacks.pack(pack),
              let program = try? Parser.parse(SourceFile(name: "<pack \(pack)>", directory: BundledPacks.directory, text: text)) else { return [] }
        return program.statements.compactMap { statement in
            if case .target(let declaration) = statement.kind { declaration.name.literal } else { nil }
        }
    }
}
