import CStackDocSystem
#if canImport(Glibc)
import Glibc
#endif

/// The Linux file calls StackDoc uses beyond POSIX (declared in the C target `CStackDocSystem`): where
/// the system or the file system does not have one, it fails and the caller does without.
package enum FileCalls {
    /// Whether names can be swapped at all (`swapNames`): on Linux (where the file system may
    /// still refuse).
    package static let canSwapNames: Bool = {
        #if os(Linux)
        true
        #else
        false
        #endif
    }()

    /// Whether space can be reserved ahead at all (`reserve`): on Linux (where the file system
    /// may still refuse).
    package static let canReserve = canSwapNames

    /// Swaps the names `first` and `second` in one step (`renameat2(…, RENAME_EXCHANGE)`):
    /// readers see either file under each name, never neither. False, with `errno`, when the
    /// system or the file system cannot (the names are then unchanged).
    package static func swapNames(_ first: String, _ second: String) -> Bool {
        stackdoc_renameat2(AT_FDCWD, first, AT_FDCWD, second, stackdoc_rename_exchange) == 0
    }

    /// Reserves the disk space of `count` bytes from `offset` of the open file `descriptor`
    /// without changing its size (`fallocate(…, FALLOC_FL_KEEP_SIZE, …)`; never
    /// `posix_fallocate`, which writes zeros where the file system cannot reserve). False, with
    /// `errno`, when it could not (not supported there, or no room).
    package static func reserve(_ descriptor: Int32, offset: Int, count: Int) -> Bool {
        stackdoc_fallocate(descriptor, stackdoc_falloc_keep_size, Int64(offset), Int64(count)) == 0
    }
}
