import Foundation

/// A script file a `BatchRunner` is running: a top-level script, or a file `read` runs.
struct RunningScript {
    /// Its name in messages.
    let shown: String
    /// Its path as opened.
    let path: String
    /// True for a file `read` runs (its errors name it; relative paths in it are its siblings).
    var byRead = false
    /// The line it is running (the `read` line, while it reads another file).
    var line = 0
    /// The file's identity (device and inode: however the path is spelt), nil when it cannot
    /// be looked at.
    let identity: FileIdentity?

    init(shown: String, path: String, byRead: Bool = false) {
        self.shown = shown
        self.path = path
        self.byRead = byRead
        identity = FileIdentity(path)
    }

    /// The message refusing to read `script` when it is already running in `running`
    /// (outermost first), naming the chain from where it runs to the `read` of it
    /// (`read: a.sd is already being read (a.sd:2 → b.sd:1 → a.sd)`); nil when it is not.
    static func cycle(reading script: RunningScript, in running: [RunningScript]) -> String? {
        guard let identity = script.identity, let start = running.firstIndex(where: { $0.identity == identity }) else { return nil }
        let chain = running[start...].map { "\($0.shown):\($0.line)" } + [script.shown]
        return "read: \(script.shown) is already being read (\(chain.joined(separator: " → ")))"
    }
}

/// Which file a path names (device and inode), so that two spellings of one file are one.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
