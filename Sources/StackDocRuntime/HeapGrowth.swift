import CStackDocSystem

/// How the `stackdoc` process's heap grows: glibc's malloc asks the system for `topPad` bytes
/// more than it needs each time a heap grows (`M_TOP_PAD`; its default is 128 KiB). The undo of
/// a 100k-row `clear` makes 100k boxed changes (≈ 30 MB) on two threads at once, then the rows'
/// batches and the document: at 128 KiB a growth, that is hundreds of `brk`/`mprotect` calls on
/// the undo's critical path (≈ 20–30 ms of its wall time: Benchmarks/RESULTS.md). The pad is
/// address space, given pages only when they are used; what it costs is that up to `topPad` of
/// freed memory at a heap's top stays with the process instead of going back.
///
/// Setting `M_TOP_PAD` also turns off glibc's dynamic mmap threshold (which otherwise rises to
/// the size of the largest mapped block freed, up to 32 MiB): every block of 128 KiB or more
/// would then get fresh pages from `mmap` and fault each of them in. An import hands its rows
/// between threads in batches of ≈ 215 KB (≈ 420 MB in all at 1M rows), so the threshold is set
/// again, to `mmapThreshold`: blocks below it come from the heap and are reused once freed.
package enum HeapGrowth {
    /// Bytes asked for beyond each heap growth.
    package static let topPad: Int32 = 32 << 20
    /// Blocks at least this large are mapped on their own (and unmapped when freed).
    package static let mmapThreshold: Int32 = 4 << 20

    /// Sets glibc's `M_TOP_PAD` and `M_MMAP_THRESHOLD` (no-op elsewhere). Called once by the
    /// executable, before any work (a library leaves its host's heap alone).
    package static func configure() {
        _ = stackdoc_mallopt(stackdoc_m_top_pad, topPad)
        _ = stackdoc_mallopt(stackdoc_m_mmap_threshold, mmapThreshold)
    }
}
