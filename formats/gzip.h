// gzip compression for writers of compressed formats (pprof).
#pragma once

#include <string>
#include <string_view>

namespace fg::formats {

/// `data` as one gzip member (deflate level 6, no file name, mtime 0, so the
/// same input always gives the same bytes).
std::string gzip_compress(std::string_view data);

}  // namespace fg::formats
