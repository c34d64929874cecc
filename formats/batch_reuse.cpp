#include "formats/batch_reuse.h"

#include <nettle/sha2.h>

#include <filesystem>
#include <fstream>
#include <system_error>

#include "fg/error.h"
#include "formats/batch_part.h"
#include "formats/batch_site.h"
#include "formats/input.h"

namespace fg::formats {

namespace fs = std::filesystem;

namespace {

class Sha256 {
 public:
  Sha256() { sha256_init(&ctx_); }
  void add(std::string_view bytes) {
    sha256_update(&ctx_, bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()));
  }
  // A field with its length first, so that no two field lists hash alike.
  void field(std::string_view bytes) {
    add(std::to_string(bytes.size()) + ":");
    add(bytes);
  }
  // A file's size and bytes, as stored (not inflated); false when it is no
  // regular file or cannot be read.
  bool file(const std::string& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return false;
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) return false;
    field(path);
    add(std::to_string(size) + ":");
    std::ifstream in(path, std::ios::binary);
    char buffer[1 << 16];
    std::uintmax_t read = 0;
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
      add(std::string_view(buffer, static_cast<std::size_t>(in.gcount())));
      read += static_cast<std::uintmax_t>(in.gcount());
    }
    return !in.bad() && read == size;
  }
  std::string hex() {
    std::uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx_, sizeof digest, digest);
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    for (std::uint8_t b : digest) out += {kDigits[b >> 4], kDigits[b & 15]};
    return out;
  }

 private:
  sha256_ctx ctx_;
};

}  // namespace

std::string page_key(const std::string& options_key, const ProfileFacts& facts, const std::string& baseline) {
  Sha256 h;
  h.field(options_key);
  h.field(facts.name);
  h.field(facts.page);
  for (const auto& [label, value] : facts.labels) {  // a manifest's labels are on the page
    h.field(label);
    h.field(value);
  }
  if (!h.file(facts.path)) return "";
  h.field(baseline);
  if (!baseline.empty() && !h.file(baseline)) return "";
  return h.hex();
}

bool reuse_page(const std::string& old_site, const std::string& new_site, const std::string& key,
                ProfileFacts& facts) {
  const fs::path from = fs::path(old_site) / facts.page;
  const fs::path file = from / kPageFacts;
  std::error_code ec;
  if (key.empty() || !fs::is_regular_file(file, ec)) return false;
  std::string text;
  try {
    auto in = Input::open(file.string());
    text = std::string(read_all(*in).view());
  } catch (const Error&) {
    return false;  // unreadable: drawn again
  }
  const std::string head = "key " + key + "\n";
  if (text.compare(0, head.size(), head) != 0) return false;
  PartFacts stored;
  try {
    stored = parse_part(file.string(), text.substr(head.size()));
  } catch (const Error&) {
    return false;  // another version's file
  }
  if (stored.profiles.size() != 1 || stored.profiles[0].path != facts.path ||
      stored.profiles[0].page != facts.page)
    return false;
  std::vector<std::string> files = stored.profiles[0].files;  // with those of its more kinds of events
  for (const ProfileFacts& k : stored.profiles[0].kinds)
    files.insert(files.end(), k.files.begin(), k.files.end());
  for (const std::string& f : files)
    if (!fs::is_regular_file(from / f, ec)) return false;
  const fs::path to = fs::path(new_site) / facts.page;
  fs::create_directories(to, ec);
  if (ec) throw Error(to.string() + ": cannot create: " + ec.message());
  for (const std::string& f : files) {
    fs::create_directories((to / f).parent_path(), ec);
    if (ec) throw Error((to / f).parent_path().string() + ": cannot create: " + ec.message());
    fs::create_hard_link(from / f, to / f, ec);
    if (ec) fs::copy_file(from / f, to / f, ec);
    if (ec) throw Error((to / f).string() + ": cannot copy from the earlier site: " + ec.message());
  }
  facts = std::move(stored.profiles[0]);
  save_page_facts(new_site, key, facts);
  return true;
}

void save_page_facts(const std::string& site, const std::string& key, const ProfileFacts& facts) {
  const std::string text = part_text({1, 1, 1, {0}, {facts}, {}});
  write_site_file((fs::path(site) / facts.page / kPageFacts).string(), "key " + key + "\n" + text);
}

}  // namespace fg::formats
