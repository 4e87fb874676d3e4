import Foundation

/// Linux file calls that glibc has but Swift's Glibc module does not declare (their
/// declarations need `_GNU_SOURCE`), found in the C library at run time: nil where it has none,
/// and the callers then do without (`FileSwap`, `ChunkFileWriter`).
enum LinuxFileCalls {
    /// `renameat2(olddirfd, oldpath, newdirfd, newpath, flags)` (glibc 2.28 and later).
    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    /// `fallocate(fd, mode, offset, length)` (64-bit `off_t`).
    typealias Fallocate = @convention(c) (Int32, Int32, Int, Int) -> Int32

    /// `renameat2`'s flag that swaps the two names (`RENAME_EXCHANGE` in `<linux/fs.h>`).
    static let renameExchange: UInt32 = 1 << 1
    /// `fallocate`'s flag that reserves space past the end without changing the file's size
    /// (`FALLOC_FL_KEEP_SIZE` in `<linux/falloc.h>`).
    static let keepSize: Int32 = 1

    /// glibc's `renameat2`, if the C library has it.
    static let renameat2: RenameAt2? = symbol("renameat2", as: RenameAt2.self)
    /// glibc's `fallocate` (never `posix_fallocate`, which writes zeros where the file system
    /// cannot reserve space), if the C library has it.
    static let fallocate: Fallocate? = symbol("fallocate", as: Fallocate.self)

    private static func symbol<F>(_ name: String, as type: F.Type) -> F? {
        guard let found = dlsym(nil, name) else { return nil }
        return unsafeBitCast(found, to: type)
    }
}
