#if canImport(Glibc)
    import Glibc
#endif

/// The packs in a repository's `objects/pack/` folder.
package enum PackFolder {
    /// The `objects/pack/` folder of the repository whose git folder is `gitDirectory` (with or without its
    /// trailing slash), with its own.
    package static func path(gitDirectory: String) -> String {
        gitDirectory + (gitDirectory.hasSuffix("/") ? "" : "/") + "objects/pack/"
    }

    /// The names of the files in `folder` ending in `suffix` (`.pack`, `.idx`), the suffix dropped: a pack's
    /// name, `pack-<checksum>`, as its two files share it. Unsorted; none when the folder cannot be read.
    package static func names(in folder: String, endingIn suffix: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(suffix) { names.append(String(name.dropLast(suffix.count))) }
        }
        return names
    }
}
