#include "formats/gzip.h"

#include <zlib.h>

#include <algorithm>

#include "fg/error.h"

namespace fg::formats {

std::string gzip_compress(std::string_view data) {
  z_stream zs{};
  if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw Error("cannot start gzip compression");
  std::string out;
  out.resize(deflateBound(&zs, static_cast<uLong>(data.size() > (1u << 30) ? (1u << 30) : data.size())) + 64);
  // zlib counts in 32-bit units: feed and drain in pieces.
  std::size_t in_pos = 0;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    std::size_t chunk = std::min<std::size_t>(data.size() - in_pos, 1u << 30);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + in_pos));
    zs.avail_in = static_cast<uInt>(chunk);
    bool last = in_pos + chunk == data.size();
    do {
      if (out.size() - zs.total_out < (1u << 16)) out.resize(out.size() * 2);
      std::size_t room = std::min<std::size_t>(out.size() - zs.total_out, 1u << 30);
      zs.next_out = reinterpret_cast<Bytef*>(out.data() + zs.total_out);
      zs.avail_out = static_cast<uInt>(room);
      rc = deflate(&zs, last ? Z_FINISH : Z_NO_FLUSH);
      if (rc == Z_STREAM_ERROR) {
        deflateEnd(&zs);
        throw Error("gzip compression failed");
      }
    } while (zs.avail_out == 0 || (last && rc != Z_STREAM_END));
    in_pos += chunk;
  }
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

}  // namespace fg::formats
