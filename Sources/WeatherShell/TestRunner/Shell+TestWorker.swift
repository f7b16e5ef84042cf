import Foundation
import Targets

extension Shell {
    /// `wsh test --worker FILE`: runs one test file in a session of its own and writes its
    /// ``TestFileResult`` as JSON on stdout, which the runner reads. The file's own output (bodies,
    /// `echo`, diagnostics) is dropped: the result carries what the reports need.
    static func runTestWorker(_ settings: TestSettings) async -> Int32 {
        guard let path = settings.workerFile else { return FailureKind.usage.exitCode }
        endWhenTheRunnerEnds()
        // stdout is the result's: anything else that writes to fd 1 or 2 (a logger plugin) goes nowhere.
        let resultFD = dup(STDOUT_FILENO)
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 {
            dup2(null, STDOUT_FILENO)
            close(null)
        }
        let io = ShellIO(stdoutIsTerminal: false, stderrIsTerminal: false, capture: { _, _ in })
        let run = Run(io: io, mode: .script)
        if settings.stub {
            run.session.options.stub = .immediate
            run.session.optionOrigins[.stub] = "--stub"
        }
        for variable in settings.variables {
            _ = run.define(variable)
        }
        for secret in settings.secrets {
            _ = run.define(secret, secret: true)
        }
        let recorder = TestRecorder(path: path, keepsEveryBody: settings.keepsBodies)
        recorder.sessionSecrets = { run.session.secretsNow }
        recorder.sessionWideSecrets = { run.session.mask.secrets }
        run.reporter = recorder
        if let environment = settings.environment {
            do {
                try run.selectEnvironment(environment, directory: Run.directory(of: path), at: nil)
            } catch let diagnostic as Diagnostic {
                recorder.report(.error(diagnostic))
                return writeResult(recorder.result(exitCode: FailureKind.runtime.exitCode, interrupted: false), code: FailureKind.runtime.exitCode, to: resultFD)
            } catch {
                return FailureKind.usage.exitCode
            }
        }
        // The runner passes on Ctrl-C as SIGINT and SIGTERM as SIGTERM: both stop the file.
        let interrupts = InterruptHandler(interactive: false, terminates: true)
        Interruption.endRemovingClaims(on: [SIGHUP])
        let code: Int32
        if let data = FileManager.default.contents(atPath: path) {
            recorder.nameEnvironment(of: SourceFile(name: Run.displayPath(path), directory: Run.directory(of: path), contents: Array(data)))
            code = await finish(run, interrupts) {
                try await run.runFile(contents: data, path: path)
            }
        } else {
            recorder.report(.error(Diagnostic(.runtime, "cannot read '\(path)'")))
            code = FailureKind.runtime.exitCode
        }
        // `exit 130` written in the file is its own verdict; only a Ctrl-C or SIGTERM interrupts the file.
        return writeResult(recorder.result(exitCode: code, interrupted: interrupts.wasInterrupted), code: code, to: resultFD)
    }

    /// The runner holds the other end of this worker's stdin and never writes to it: when it
    /// closes, the runner is gone (killed, its terminal closed, stopped by `| head`), nobody will
    /// read the result, and the worker ends rather than wait on a server that never answers.
    private static func endWhenTheRunnerEnds() {
        Thread.detachNewThread {
            WorkerProcess.waitUntilInputCloses()
            FilePaths.removeUnwrittenClaims()
            _exit(FailureKind.interrupted.exitCode)
        }
    }

    /// Writes a worker's result as JSON where the runner reads it; returns its exit code.
    private static func writeResult(_ result: TestFileResult, code: Int32, to descriptor: Int32) -> Int32 {
        let encoded = (try? JSONEncoder().encode(result)) ?? Data()
        ShellIO.writeAll(descriptor, Array(encoded))
        return code
    }
}
