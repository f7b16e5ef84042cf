import Foundation
import Targets

/// A live answer arrived, but `set record` could not save it; the description says why.
struct RecordingFailure: Error, CustomStringConvertible {
    var description: String
}

extension Run {
    /// `set record DIR`: the directory as an absolute path, relative to the running file (the
    /// current directory at the prompt), as `source` and `save` are; made when it is missing.
    func recordDirectory(_ value: String, at span: SourceSpan) throws -> String {
        if Self.onOff(value) == true {
            throw failure("set record takes the directory to save answers in, or off", at: span, notes: ["example: set record fixtures"])
        }
        let path = URL(fileURLWithPath: resolvePath(value)).standardizedFileURL.path
        if let reason = RecordedSample.makeDirectory(path) {
            throw failure("cannot record into \(Self.displayPath(path)): \(reason)", at: span)
        }
        return path
    }

    /// Under `set record DIR`, saves a live answer of a declared target as a sample file in DIR
    /// (``RecordedSample``), its secrets masked (``Redaction/maskedForSample(_:contentType:)``:
    /// the session's, what the request sent under a sensitive name, as the logger masks them, and
    /// the credentials a server issues, by name and shape),
    /// and gives the target that `sample` line. Answers from samples (`set stub`) are not recorded.
    /// Returns why it could not, or nil.
    func recordAnswer(_ response: Response, of target: Target) -> String? {
        guard let directory = options.record, options.stub == .off, let declared = session.targets[target.name] else { return nil }
        let contentType = response.header("Content-Type")
        let fileExtension = RecordedSample.fileExtension(contentType: contentType, body: response.body)
        let path = (directory as NSString).appendingPathComponent(
            RecordedSample.fileName(target: declared.name, status: response.status, fileExtension: fileExtension))
        // The session's secrets, what the call sent under a sensitive name and what this answer
        // issued as credentials (a token in a header, echoed in the body), wherever they show.
        let masked = redaction.including(secretsSentFor: response).maskedForSample(response.body, contentType: contentType)
        // A file this session did not record (a fixture written by hand) is kept beside it once,
        // never lost; once kept, later recordings replace the file in place (a nightly re-record
        // leaves one `.orig`, not one a run).
        let kept = path + ".orig"
        if !session.recordedFiles.contains(path), !FileManager.default.fileExists(atPath: kept),
           let earlier = FileManager.default.contents(atPath: path), earlier != masked {
            guard rename(path, kept) == 0 else {
                return "cannot record the answer of '\(declared.name)' in \(Self.displayPath(path)): the file there could not be kept aside "
                    + "(\(String(cString: strerror(errno)).lowercased())), so it was left as it was"
            }
            io.err("note: set record replaced \(Self.displayPath(path)); the file that was there is \(Self.displayPath(kept))\n")
        }
        if let reason = RecordedSample.makeDirectory(FilePaths.directory(of: path)) ?? BodyFile.write(masked, to: path) {
            return "cannot record the answer of '\(declared.name)' in \(Self.displayPath(path)): \(reason)"
        }
        session.recordedFiles.insert(path)
        do {
            // A pack's or an imported target keeps following `set base`: recording against a mock
            // must not send the next call to the document's host.
            try declareTarget(try recordedDeclaration(declared, sample: path, status: response.status, directory: directory),
                              fromPack: declared.fromPack)
        } catch let diagnostic as Diagnostic {
            return "cannot give target '\(declared.name)' its recorded sample: \(diagnostic.message)"
        } catch {
            return "\(error)"
        }
        return nil
    }

    /// `declared` with a `sample` line for the recorded file, in place of any sample of the same
    /// status: a 2xx one goes first, as the default (the first sample), so a replay answers the
    /// latest success recorded; any other status stays where its sample stood, or goes last.
    /// The other fields keep their text.
    /// A bundled pack's samples, which are not files on disk, are written into DIR beside it, so
    /// that `save` can write the target.
    func recordedDeclaration(_ declared: DeclaredTarget, sample path: String, status: Int, directory: String) throws -> TargetDeclaration {
        let old = declared.declaration
        let bundled = old.file.directory == BundledPacks.directory
        var fields: [String] = []
        var samples: [(status: Int?, line: String)] = []
        var replaced: Int?
        for field in old.fields {
            let text = old.file.text(field.span.start..<field.span.end)
            guard field.name == "sample" else {
                fields.append(text)
                continue
            }
            let fieldStatus = sampleStatus(field)
            guard fieldStatus != status else {
                replaced = samples.count
                continue
            }
            let kept = bundled ? try bundledSample(field, status: fieldStatus, of: declared.name, from: old.file, into: directory) : nil
            samples.append((fieldStatus, kept ?? text))
        }
        let line = Self.sampleLine(path, status: status)
        if (200...299).contains(status) {
            // The latest success is what a replay answers: a 200 recorded after a 201 is the default.
            samples.insert((status, line), at: 0)
        } else {
            samples.insert((status, line), at: replaced ?? samples.count)
        }
        let body = (fields + samples.map(\.line)).map { "  " + $0 }.joined(separator: "\n")
        let file = SourceFile(name: "<recorded \(declared.name)>", directory: bundled ? directory : old.file.directory,
                              text: "target \(declared.name) {\n\(body)\n}\n")
        guard case .target(let declaration)? = try Parser.parse(file).statements.first?.kind else {
            throw RecordingFailure(description: "cannot give target '\(declared.name)' its recorded sample")
        }
        return declaration
    }

    /// The status a `sample` line answers with: 200 unless it says; nil when its words cannot be read now.
    func sampleStatus(_ field: TargetDeclaration.Field) -> Int? {
        guard field.arguments.count == 3 else { return 200 }
        return (try? expand(field.arguments[2]).text).flatMap { Int($0) }
    }

    /// `sample @/abs/path.json`, with `status N` unless it is 200; the path quoted when it needs
    /// it, after an unquoted `@` (`@"/my fixtures/a.json"`): a quoted `"@..."` is an inline answer.
    static func sampleLine(_ path: String, status: Int) -> String {
        "sample @" + quoted(path) + (status == 200 ? "" : " status \(status)")
    }

    /// A bundled pack's sample written into the record directory, as the `sample` line that names
    /// it; nil when the field names no bundled file.
    private func bundledSample(_ field: TargetDeclaration.Field, status: Int?, of target: String,
                               from file: SourceFile, into directory: String) throws -> String? {
        guard let status, let text = field.arguments.first?.literal, text.hasPrefix("@"),
              let data = BundledPacks.file(String(text.dropFirst()), directory: file.directory) else { return nil }
        let fileExtension = URL(fileURLWithPath: String(text.dropFirst())).pathExtension
        let path = (directory as NSString).appendingPathComponent(
            RecordedSample.fileName(target: target, status: status, fileExtension: fileExtension.isEmpty ? "bin" : fileExtension))
        if let reason = RecordedSample.makeDirectory(FilePaths.directory(of: path)) ?? BodyFile.write(data, to: path) {
            throw RecordingFailure(description: "cannot write \(Self.displayPath(path)): \(reason)")
        }
        return Self.sampleLine(path, status: status)
    }
}
