// Big tables in 2 MiB pages: the memory the tools install for libanalysis's
// large tables (fg/big_table.h) before they read. A table of 100 MB spans
// 25,000 small pages, far more than the TLB holds, and under a hypervisor
// each TLB miss walks two sets of page tables; in huge pages (transparent
// huge pages, asked for with madvise) a lookup's cache miss does not also
// miss the TLB.
#pragma once

#include <cstddef>

#include "fg/big_table.h"

namespace fg::formats {

/// Bytes of a huge page.
inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

/// `bytes` (rounded up to whole huge pages) of anonymous memory starting on
/// a huge-page boundary, asked for in huge pages (a hint: small pages if
/// the kernel has none). Throws std::bad_alloc when it cannot be mapped.
void* huge_page_allocate(std::size_t bytes);
/// Unmaps what huge_page_allocate(bytes) returned.
void huge_page_deallocate(void* p, std::size_t bytes) noexcept;

/// huge_page_allocate and huge_page_deallocate as a BigTableMemory.
inline BigTableMemory huge_page_memory() { return {huge_page_allocate, huge_page_deallocate}; }

/// Makes every big table take huge pages (set_big_table_memory()): the
/// tools call it once at startup, before reading.
void use_huge_pages();

}  // namespace fg::formats
