import Foundation
import StackDocRuntime

/// The large regular file a write is about to replace, held open across the `rename` (or swap:
/// `FileSwap`) that replaces it and closed on another thread. The kernel frees a file's blocks and cached pages
/// when its last name and last descriptor are gone, on the thread that lets go of the last one:
/// without this, the `rename` frees a 345 MB export's in ≈ 35 ms while the command waits.
/// Symbolic links, small files, files with other names (hard links) and anything that is not a
/// regular file are left alone (nothing is opened).
struct ReplacedFile {
    /// The size from which a replaced file is freed on another thread.
    static let minimumBytes = 16 << 20

    private let descriptor: Int32

    /// Opens the file at `path` for reading when it is a regular file of at least
    /// `minimumBytes` with one name (never following a symbolic link, never blocking).
    init(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1, Int(info.st_size) >= Self.minimumBytes else {
            descriptor = -1
            return
        }
        descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    }

    /// Whether a descriptor is held (the file qualified and could be opened).
    var isHeld: Bool { descriptor >= 0 }

    /// Lets go of the file once it is replaced: its descriptor is closed on a thread of the
    /// shared pool (`BackgroundTask.detached`), which frees the file's blocks and pages there.
    func release() {
        guard descriptor >= 0 else { return }
        let descriptor = descriptor
        BackgroundTask<Void>.detached { close(descriptor) }
    }
}
