import OpenAPI
import Targets

extension Run {
    /// `help NAME` for a target: its doc, method and URL, parameters (with what its OpenAPI
    /// document says of them) and declared answers.
    func targetHelp(_ declared: DeclaredTarget) {
        var lines: [String] = []
        let target = try? compiledTarget(declared)
        if let operation = declared.openAPI?.operation {
            let title = operation.summary.isEmpty ? operation.description : operation.summary
            lines.append(title.isEmpty ? declared.name : "\(declared.name): \(title)")
            if !operation.summary.isEmpty, !operation.description.isEmpty, operation.description != operation.summary {
                lines += operation.description.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
            }
            if let target { lines.append("  \(target.method.rawValue) \(target.baseURL)\(target.path)") }
            if !operation.parameters.isEmpty {
                lines.append("parameters:")
                let width = operation.parameters.map { $0.name.count }.max() ?? 0
                for parameter in operation.parameters {
                    var facts = [parameter.location.rawValue]
                    if !parameter.type.isEmpty { facts.append(parameter.type) }
                    facts.append(parameter.required ? "required" : "optional")
                    if let value = parameter.defaultValue { facts.append("default \(value)") }
                    var line = "  \(parameter.name.padding(width))  (\(facts.joined(separator: ", ")))"
                    if !parameter.description.isEmpty { line += " " + Self.oneLine(parameter.description) }
                    if !parameter.enumValues.isEmpty { line += " one of: " + parameter.enumValues.joined(separator: ", ") }
                    lines.append(line)
                }
            }
            if let whole = operation.wholeBody {
                lines.append("body: required; " + Self.wholeBodyHint(whole, target: declared.name))
            }
            if !operation.responses.isEmpty {
                lines.append("responses:")
                for response in operation.responses {
                    let types = response.content.map(\.mediaType).joined(separator: ", ")
                    lines.append("  \(response.status)  \(Self.oneLine(response.description))\(types.isEmpty ? "" : "  [\(types)]")")
                }
            }
        } else {
            lines.append("\(declared.name): \(target?.doc ?? "")")
            if let target {
                lines.append("  \(target.method.rawValue) \(target.baseURL)\(target.path)")
                let parameters = target.parameters
                if !parameters.isEmpty {
                    lines.append("parameters: " + parameters.map { $0.isRequired ? $0.name : $0.name + "?" }.joined(separator: " "))
                }
            }
        }
        lines.append("'show \(declared.name)' prints its declaration")
        io.out(lines.map { mask($0) }.joined(separator: "\n") + "\n")
    }

    /// A description's first line, cut to fit one line of help.
    static func oneLine(_ text: String) -> String {
        String(text.split(separator: "\n").first ?? "").shortened(100)
    }
}
