import Foundation
import StackDocRuntime

/// How a written temporary file takes the place of the file it replaces (`FileIO`'s last step).
///
/// A large new file (`ReplacedFile.minimumBytes` or more) that replaces a regular file is
/// **swapped** in: `renameat2(…, RENAME_EXCHANGE)` swaps the two names in one step (readers see
/// the old file or the new one, never neither, as with `rename`), then the old file's name — now
/// the temporary one — is removed. Anything else is `rename`d over, as before.
///
/// Why: ext4 (`auto_da_alloc`, on by default) starts writing the new file out to disk inside a
/// `rename` that replaces another file, so that a crash soon after does not leave it empty. For
/// a 345 MB export that `rename` took 50–700 ms, mostly waiting for the disk, and the writes
/// then competed with the next command for the disk and the cores (issue 15 item 6: the slow
/// points of `export --at`). A swap is not a `rename` over a file, so the text is written out by
/// the kernel's writeback later, or never when it is replaced first. The cost: like any file
/// written without `fsync`, a large export replaced moments before an OS crash or power loss
/// may be empty or short afterwards. Small files (scripts, `log export` of short histories)
/// keep ext4's heuristic.
enum FileSwap {
    /// Puts the file at `temporary` in the place of `path`: swapped in when it is large and
    /// `path` is a regular file (and the system can swap), else `rename`d over it.
    /// - Returns: 0, or the errno of the failure (`temporary` then still names the new file).
    static func install(_ temporary: String, at path: String) -> Int32 {
        if shouldSwap(temporary, path), swap(temporary, path) { return 0 }
        return rename(temporary, path) == 0 ? 0 : errno
    }

    /// Whether `temporary` is large and `path` a regular file (not followed if a link).
    private static func shouldSwap(_ temporary: String, _ path: String) -> Bool {
        var new = stat(), old = stat()
        guard FileCalls.canSwapNames, stat(temporary, &new) == 0, Int(new.st_size) >= ReplacedFile.minimumBytes,
              lstat(path, &old) == 0, old.st_mode & S_IFMT == S_IFREG else { return false }
        return true
    }

    /// Swaps the names and removes the old file's (now `temporary`); false when the swap failed
    /// or what it swapped out is a directory after all (put there since `shouldSwap` looked:
    /// swapped back), so that the caller renames instead.
    private static func swap(_ temporary: String, _ path: String) -> Bool {
        guard FileCalls.swapNames(temporary, path) else { return false }
        var old = stat()
        if lstat(temporary, &old) == 0, old.st_mode & S_IFMT == S_IFDIR {
            // A directory took the file's place meanwhile: put it back, and let `rename` refuse.
            _ = FileCalls.swapNames(temporary, path)
            return false
        }
        // The old file's blocks are freed when its last name and descriptor go: with a
        // `ReplacedFile` held, on another thread.
        unlink(temporary)
        return true
    }
}
