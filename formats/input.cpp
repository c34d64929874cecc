#include "formats/input.h"

#include <fcntl.h>
#include <libdeflate.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <utility>

#include "fg/error.h"

namespace fg::formats {

namespace {

// The most bytes inflate_whole() makes at once of input checked as it
// arrives (FormatLimit::first_invalid).
constexpr std::uint64_t kCheckedAtOnce = std::uint64_t{64} << 20;

// The error for input that inflates past the limit.
Error gzip_bomb(const std::string& name, std::uint64_t limit) {
  return Error(name + ": inflates to more than " + std::to_string(limit) + " bytes; refusing (a gzip bomb?)");
}

}  // namespace

SourcePosition text_position(std::string file, std::string_view text, std::size_t offset) {
  const std::string_view before = text.substr(0, offset);
  const std::size_t nl = before.rfind('\n');
  const auto line = static_cast<std::uint64_t>(std::count(before.begin(), before.end(), '\n')) + 1;
  const std::size_t column = before.size() - (nl == std::string_view::npos ? 0 : nl + 1) + 1;
  return SourcePosition::text(std::move(file), line, column);
}

void throw_line_too_long(const std::string& file, std::uint64_t line) {
  throw ParseError(SourcePosition::text(file, line, kMaxLineBytes + 1),
                   "a line longer than " + std::to_string(kMaxLineBytes >> 20) +
                       " MiB, the most fg reads; refusing (not a profile?)");
}

void Input::refuse_whole(std::uint64_t offset) const {
  const std::uint64_t limit = whole_limit();
  if (limit == max_inflated_ && compressed_) throw gzip_bomb(name_, max_inflated_);
  const std::string why = limit == format_.bytes && format_.why ? format_.why : "half of --max-memory";
  throw ParseError(SourcePosition::binary(name_, offset),
                   "more than " + std::to_string(limit) + " bytes to hold in memory (" + why + "); refusing" +
                       (compressed_ ? " (a gzip bomb?)" : ""));
}

// The raw byte source (a descriptor or a string) and the inflater.
class Input::Impl {
 public:
  int fd = -1;
  bool own_fd = false;
  bool by_path = false;  // opened by Input::open(path), not stdin or bytes
  std::string memory;
  std::size_t memory_pos = 0;
  bool from_memory = false;
  bool mappable = false;  // from_memory, and map_whole() hands out `memory`

  bool inflating = false;
  z_stream zs{};
  bool zs_ready = false;
  std::string raw;  // compressed bytes not yet inflated
  bool raw_eof = false;

  void* map = nullptr;
  std::size_t map_size = 0;
  std::size_t released = 0;

  // A gzipped file's compressed bytes, mapped whole (compressed_whole()).
  void* zmap = nullptr;
  std::size_t zmap_size = 0;
  void unmap_compressed() {
    if (zmap) ::munmap(zmap, zmap_size);
    zmap = nullptr;
  }

  ~Impl() {
    unmap_compressed();
    if (map) ::munmap(map, map_size);
    if (zs_ready) inflateEnd(&zs);
    if (own_fd && fd >= 0) ::close(fd);
  }

  std::size_t read_source(char* buf, std::size_t n, const std::string& name) {
    if (from_memory) {
      std::size_t k = std::min(n, memory.size() - memory_pos);
      std::memcpy(buf, memory.data() + memory_pos, k);
      memory_pos += k;
      return k;
    }
    for (;;) {
      ssize_t k = ::read(fd, buf, n);
      if (k >= 0) return static_cast<std::size_t>(k);
      if (errno == EINTR) continue;
      throw Error(name + ": read failed: " + std::strerror(errno));
    }
  }
};

Input::Input(std::string name, std::uint64_t max_inflated)
    : name_(std::move(name)), max_inflated_(max_inflated), impl_(std::make_unique<Impl>()) {}

Input::~Input() = default;

class InputFactory {
 public:
  static std::unique_ptr<Input> make(std::string name, std::uint64_t max) {
    return std::unique_ptr<Input>(new Input(std::move(name), max));
  }
};

std::unique_ptr<Input> Input::open(const std::string& path, std::uint64_t max_inflated) {
  if (path == "-") {
    auto in = InputFactory::make("<stdin>", max_inflated);
    in->impl_->fd = 0;
    return in;
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(path + ": cannot open: " + std::strerror(errno));
  auto in = InputFactory::make(path, max_inflated);
  in->impl_->fd = fd;
  in->impl_->own_fd = true;
  in->impl_->by_path = true;
  return in;
}

std::unique_ptr<Input> Input::from_bytes(std::string name, std::string bytes, std::uint64_t max_inflated,
                                         bool mappable) {
  auto in = InputFactory::make(std::move(name), max_inflated);
  in->impl_->from_memory = true;
  in->impl_->mappable = mappable;
  in->impl_->memory = std::move(bytes);
  return in;
}

std::unique_ptr<Input> Input::reopen() const {
  struct stat st {};
  // A FIFO or a device opened by path would not give the same bytes again
  // (and opening a FIFO anew could wait for ever).
  if (!impl_->by_path || ::stat(name_.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return nullptr;
  return open(name_, max_inflated_);
}

std::size_t Input::read_raw_inflated(char* buf, std::size_t n) {
  Impl& m = *impl_;
  if (!sniffed_) {
    // Decide on gzip from the first two bytes of the raw stream.
    sniffed_ = true;
    char magic[2];
    std::size_t got = 0;
    while (got < 2) {
      std::size_t k = m.read_source(magic + got, 2 - got, name_);
      if (k == 0) break;
      got += k;
    }
    m.raw.assign(magic, got);
    if (got == 2 && static_cast<unsigned char>(magic[0]) == 0x1f &&
        static_cast<unsigned char>(magic[1]) == 0x8b) {
      compressed_ = true;
      m.inflating = true;
      if (inflateInit2(&m.zs, 15 + 32) != Z_OK) throw Error(name_ + ": cannot start gzip inflater");
      m.zs_ready = true;
    }
  }
  if (!m.inflating) {
    if (!m.raw.empty()) {
      std::size_t k = std::min(n, m.raw.size());
      std::memcpy(buf, m.raw.data(), k);
      m.raw.erase(0, k);
      return k;
    }
    return m.read_source(buf, n, name_);
  }
  // Inflate, concatenated gzip members included.
  if (n == 0) return 0;
  for (;;) {
    if (m.raw.empty() && !m.raw_eof) {
      m.raw.resize(1 << 16);
      std::size_t k = m.read_source(m.raw.data(), m.raw.size(), name_);
      m.raw.resize(k);
      if (k == 0) m.raw_eof = true;
    }
    // With no input left, inflate is still called: it may hold output of
    // input it has taken (the rest of a match that did not fit in the last
    // buffer), so what a truncated member gives, and the offset its error
    // names, do not depend on the sizes of the reads.
    m.zs.next_in = reinterpret_cast<Bytef*>(m.raw.data());
    m.zs.avail_in = static_cast<uInt>(m.raw.size());
    m.zs.next_out = reinterpret_cast<Bytef*>(buf);
    m.zs.avail_out = static_cast<uInt>(n);
    int rc = inflate(&m.zs, Z_NO_FLUSH);
    std::size_t produced = n - m.zs.avail_out;
    m.raw.erase(0, m.raw.size() - m.zs.avail_in);
    if (rc == Z_STREAM_END) {
      // Another member may follow.
      if (m.raw.empty() && !m.raw_eof) {
        m.raw.resize(1 << 16);
        std::size_t k = m.read_source(m.raw.data(), m.raw.size(), name_);
        m.raw.resize(k);
        if (k == 0) m.raw_eof = true;
      }
      if (!m.raw.empty())
        inflateReset(&m.zs);
      else
        m.inflating = false, m.raw_eof = true;
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      throw Error(name_ + ": corrupt gzip data after " + std::to_string(inflated_ + produced) +
                  " inflated bytes" + (m.zs.msg ? std::string(": ") + m.zs.msg : std::string()));
    }
    inflated_ += produced;
    if (inflated_ > max_inflated_) throw gzip_bomb(name_, max_inflated_);
    if (produced > 0) return produced;
    if (!m.inflating) return 0;
    if (m.raw.empty() && m.raw_eof) {
      // Still inside a gzip member with nothing left to feed it.
      throw Error(name_ + ": truncated gzip data after " + std::to_string(inflated_) + " inflated bytes");
    }
  }
}

std::string_view Input::head(std::size_t n) {
  if (lookahead_pos_ > 0) {
    lookahead_.erase(0, lookahead_pos_);
    lookahead_pos_ = 0;
  }
  while (lookahead_.size() < n) {
    // Grows with what arrives (a page at first, then doubling), not by n:
    // a small input asked for a large head costs no n bytes of zeroed
    // memory (the JFR reader asks for 1 MiB).
    std::size_t old = lookahead_.size();
    std::size_t want = std::min(n - old, std::max<std::size_t>(old, 1 << 12));
    lookahead_.resize(old + want);
    std::size_t k = read_raw_inflated(lookahead_.data() + old, want);
    lookahead_.resize(old + k);
    if (k == 0) break;
  }
  return std::string_view(lookahead_).substr(0, std::min(n, lookahead_.size()));
}

std::size_t Input::read(char* buf, std::size_t n) {
  std::size_t k;
  if (lookahead_pos_ < lookahead_.size()) {
    k = std::min(n, lookahead_.size() - lookahead_pos_);
    std::memcpy(buf, lookahead_.data() + lookahead_pos_, k);
    lookahead_pos_ += k;
  } else {
    k = read_raw_inflated(buf, n);
  }
  offset_ += k;
  return k;
}

namespace {

// Gives back the whole pages within [base + begin, base + end) of a mapping
// (page-aligned at base); returns the end of the last page given back.
std::size_t drop_pages(char* base, std::size_t begin, std::size_t end) {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  begin = (begin + page - 1) / page * page;
  end = end / page * page;
  if (begin < end) ::madvise(base + begin, end - begin, MADV_DONTNEED);
  return end;
}

// Gives back the pages before base + offset of a mapping that is read from
// its start on: they are not looked at again. `released` is how far it
// was done before. A few MiB at a time: each call interrupts the process's
// other threads (their cached page mappings are shot down), so a reader
// that calls it every few pages would spend more on that than it saves.
void release_pages(char* base, std::size_t offset, std::size_t& released) {
  constexpr std::size_t kStep = std::size_t{4} << 20;
  if (offset >= released + kStep) released = std::max(released, drop_pages(base, released, offset));
}

}  // namespace

std::optional<std::string_view> Input::map_whole() {
  Impl& m = *impl_;
  if (offset_ != 0 || (m.from_memory ? !m.mappable || m.memory.empty() : m.fd < 0)) return std::nullopt;
  head(2);  // decides gzip
  if (compressed_) return std::nullopt;
  std::string_view whole = m.memory;
  if (!m.from_memory) {
    struct stat st;
    if (::fstat(m.fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) return std::nullopt;
    // head() read the first bytes from the descriptor; the mapping starts at
    // the file's beginning, which is where the lookahead starts too.
    void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, m.fd, 0);
    if (p == MAP_FAILED) return std::nullopt;
    ::madvise(p, static_cast<std::size_t>(st.st_size), MADV_SEQUENTIAL);
    m.map = p;
    m.map_size = static_cast<std::size_t>(st.st_size);
    whole = std::string_view(static_cast<const char*>(p), m.map_size);
  }
  offset_ = whole.size();
  lookahead_.clear();
  lookahead_pos_ = 0;
  return whole;
}

void Input::release_mapped(std::size_t offset) {
  Impl& m = *impl_;
  if (m.map) release_pages(static_cast<char*>(m.map), offset, m.released);
}

void Input::drop_mapped(std::size_t begin, std::size_t end) {
  Impl& m = *impl_;
  if (m.map) drop_pages(static_cast<char*>(m.map), begin, std::min(end, m.map_size));
}

InputBytes& InputBytes::operator=(InputBytes&& o) noexcept {
  if (this != &o) {
    this->~InputBytes();
    mapped_ = std::exchange(o.mapped_, nullptr);
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
    capacity_ = std::exchange(o.capacity_, 0);
    released_ = std::exchange(o.released_, 0);
  }
  return *this;
}

InputBytes::~InputBytes() {
  if (capacity_ > 0) ::munmap(data_, capacity_);
  capacity_ = 0;
}

void InputBytes::release(std::size_t offset) {
  if (mapped_) {
    mapped_->release_mapped(offset);
    return;
  }
  if (capacity_ > 0) release_pages(data_, std::min(offset, size_), released_);
}

bool InputBytes::pad(std::size_t n) {
  if (mapped_) return false;
  if (capacity_ - size_ < n) {
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    grow((size_ + n + page - 1) / page * page);
  }
  return true;
}

void InputBytes::grow(std::size_t capacity) {
  void* p = capacity_ == 0
                ? ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                : ::mremap(data_, capacity_, capacity, MREMAP_MAYMOVE);
  if (p == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<char*>(p);
  capacity_ = capacity;
}

namespace {

struct Decompressor {
  libdeflate_decompressor* d = libdeflate_alloc_decompressor();
  ~Decompressor() {
    if (d) libdeflate_free_decompressor(d);
  }
};

// The smallest gzip member: a 10-byte header and an 8-byte trailer.
constexpr std::size_t kGzipMin = 18;

// The inflated size (modulo 4 GiB) in the trailer of the last member of
// `gz`, at least kGzipMin bytes: little-endian, its last four bytes.
std::uint32_t last_member_size(std::string_view gz) {
  const auto* t = reinterpret_cast<const unsigned char*>(gz.data() + gz.size() - 4);
  return std::uint32_t{t[0]} | std::uint32_t{t[1]} << 8 | std::uint32_t{t[2]} << 16 |
         std::uint32_t{t[3]} << 24;
}

}  // namespace

std::optional<std::string_view> Input::compressed_whole() {
  Impl& m = *impl_;
  head(2);  // decides gzip
  if (!compressed_ || offset_ != 0) return std::nullopt;
  if (m.from_memory) {
    if (m.memory.size() < kGzipMin) return std::nullopt;
    return std::string_view(m.memory);
  }
  if (!m.zmap) {
    struct stat st;
    if (!m.own_fd || ::fstat(m.fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        static_cast<std::uint64_t>(st.st_size) < kGzipMin)
      return std::nullopt;
    const auto size = static_cast<std::size_t>(st.st_size);
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, m.fd, 0);
    if (p == MAP_FAILED) return std::nullopt;
    ::madvise(p, size, MADV_SEQUENTIAL);
    m.zmap = p;
    m.zmap_size = size;
  }
  return std::string_view(static_cast<const char*>(m.zmap), m.zmap_size);
}

std::optional<std::uint64_t> Input::whole_inflated_size() {
  const std::optional<std::string_view> in = compressed_whole();
  if (!in) return std::nullopt;
  return last_member_size(*in);
}

// zlib inflates a large profile at some 200 MB/s, and a reader that needs
// the whole input waits for all of it; libdeflate, given every compressed
// byte and room for every inflated one, is twice as quick. Anything it
// does not take (damaged data above all) goes back to zlib's streaming,
// which names the offset of the fault.
bool Input::inflate_whole(InputBytes& out) {
  Impl& m = *impl_;
  const std::optional<std::string_view> whole = compressed_whole();
  if (!whole) return false;
  const std::string_view in = *whole;
  // The mapping goes when this returns, inflated or not (zlib then reads
  // the file through its descriptor).
  struct Unmap {
    Impl& m;
    ~Unmap() { m.unmap_compressed(); }
  } unmap{m};
  Decompressor z;
  if (!z.d) return false;
  // Deflate inflates at most 1,032 bytes per byte: room past that (or
  // past the limit) is never needed, so no field of the file sizes it.
  const std::uint64_t limit = whole_limit();
  std::uint64_t most = std::min<std::uint64_t>(limit + 1, std::uint64_t{1032} * in.size() + (1 << 16));
  // Bytes that are checked as they arrive are inflated at once only up to
  // a bound: past it, read_all() streams them (and looks at each part).
  if (format_.first_invalid) most = std::min(most, kCheckedAtOnce);
  // For the usual single member, the room needed.
  // It inflates to at least that (the trailer is the size modulo 4 GiB):
  // refused before anything is allocated.
  const std::uint32_t last_size = last_member_size(in);
  if (last_size > limit) refuse_whole(limit);
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  auto room = [&](std::uint64_t n) {
    return static_cast<std::size_t>((std::min(std::max<std::uint64_t>(n, 1 << 20), most) + page - 1) / page *
                                    page);
  };
  InputBytes bytes;
  bytes.grow(room(last_size));
  std::size_t pos = 0;
  while (pos < in.size()) {
    std::size_t used = 0, produced = 0;
    const libdeflate_result rc =
        libdeflate_gzip_decompress_ex(z.d, in.data() + pos, in.size() - pos, bytes.data_ + bytes.size_,
                                      bytes.capacity_ - bytes.size_, &used, &produced);
    if (rc == LIBDEFLATE_SUCCESS) {
      pos += used;
      bytes.size_ += produced;
      continue;
    }
    if (rc != LIBDEFLATE_INSUFFICIENT_SPACE) return false;
    if (bytes.capacity_ >= most) {
      if (most == limit + 1) refuse_whole(limit);
      return false;
    }
    bytes.grow(room(std::uint64_t{bytes.capacity_} * 2));  // and this member again
  }
  if (bytes.size_ > limit) refuse_whole(limit);
  inflated_ = offset_ = bytes.size_;
  lookahead_.clear();
  lookahead_pos_ = 0;
  // Nothing more to read: the source is spent.
  m.inflating = false;
  m.raw.clear();
  m.from_memory = true;
  m.mappable = false;
  std::string().swap(m.memory);
  m.memory_pos = 0;
  out = std::move(bytes);
  return true;
}

namespace {

// Refuses the first byte of `bytes` from `from` on that the format cannot
// continue with (at its line and column), if it has such bytes.
void check_bytes(const Input& input, const FormatLimit& format, std::string_view bytes, std::size_t from) {
  if (!format.first_invalid) return;
  const std::size_t k = format.first_invalid(bytes.substr(from));
  if (k != std::string_view::npos)
    throw ParseError(text_position(input.name(), bytes, from + k), format.invalid);
}

}  // namespace

InputBytes read_all(Input& input, FormatLimit format) {
  struct Scope {
    Input& in;
    ~Scope() { in.format_ = {}; }
  } scope{input};
  input.format_ = format;
  InputBytes out;
  if (auto whole = input.map_whole()) {
    out.mapped_ = &input;
    out.data_ = const_cast<char*>(whole->data());
    out.size_ = whole->size();
    return out;
  }
  if (input.inflate_whole(out)) {
    check_bytes(input, format, out.view(), 0);
    return out;
  }
  // Anonymous memory, doubled by moving its pages (no copy): only pages
  // written are in memory, so the slack costs address space alone.
  const std::uint64_t limit = input.whole_limit();
  // Checked bytes are read a part at a time, each looked at as it arrives.
  const std::size_t part = format.first_invalid ? std::size_t{4} << 20 : SIZE_MAX;
  out.grow(std::size_t{1} << 16);  // a small input costs no megabyte; doubling moves pages
  for (;;) {
    if (out.capacity_ - out.size_ < (1 << 16)) out.grow(out.capacity_ * 2);
    const std::size_t k = input.read(out.data_ + out.size_, std::min(part, out.capacity_ - out.size_));
    if (k == 0) break;
    out.size_ += k;
    check_bytes(input, format, out.view(), out.size_ - k);
    if (out.size_ > limit) input.refuse_whole(limit);
  }
  return out;
}

}  // namespace fg::formats
