#include "wb/guarded_array.h"

#include "wb/ceil_div.h"

#include <cstdio>
#include <cstdlib>

#include <sys/mman.h>
#include <unistd.h>

namespace wb {

GuardedBytes::GuardedBytes(std::size_t bytes) {
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t data_pages = ceil_div(bytes, page);
    mapping_bytes_ = (data_pages + 2) * page;
    void* mapping = ::mmap(nullptr, mapping_bytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) {
        std::fprintf(stderr, "error: could not map %zu bytes of guarded memory\n", mapping_bytes_);
        std::exit(EXIT_FAILURE);
    }
    mapping_ = mapping;
    char* first_data_page = static_cast<char*>(mapping) + page;
    if (data_pages > 0 && ::mprotect(first_data_page, data_pages * page, PROT_READ | PROT_WRITE) != 0) {
        std::fprintf(stderr, "error: could not open %zu pages of guarded memory\n", data_pages);
        std::exit(EXIT_FAILURE);
    }
    // The data end where the trailing guard page begins.
    data_ = first_data_page + data_pages * page - bytes;
}

GuardedBytes::~GuardedBytes() {
    if (mapping_) ::munmap(mapping_, mapping_bytes_);
}

}  // namespace wb
