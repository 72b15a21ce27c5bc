import Foundation
import LedgerFormat
import LedgerStore

/// Standard output and error, and rendering of JSON values for `--json`.
enum Output {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func err(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// Prints a JSON object in canonical form (stable, diffable output for machines).
    static func json(_ object: JSONObject) {
        out(String(decoding: CanonicalJSON.encode(object), as: UTF8.self))
    }

    /// Whether standard error is a terminal (progress is shown only then).
    static var stderrIsTerminal: Bool { isatty(2) == 1 }
}

/// Reading input files, with errors that name the file.
enum InputFile {
    /// Reads a file, or standard input for `-`.
    static func read(_ path: String) throws(CLIError) -> [UInt8] {
        if path == "-" {
            return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                throw .data("\(path): cannot read (\(isDirectory.boolValue ? "a directory" : "permission denied"))")
            }
            throw .data("\(path): no such file")
        }
        return [UInt8](data)
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}
