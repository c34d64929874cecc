#include "formats/deepflow/node_id.h"

namespace fg::formats::deepflow {

namespace {

// uuid.NamespaceOID, 6ba7b812-9dad-11d1-80b4-00c04fd430c8, as bytes.
constexpr std::uint8_t kNamespaceOid[16] = {0x6b, 0xa7, 0xb8, 0x12, 0x9d, 0xad, 0x11, 0xd1,
                                            0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};

}  // namespace

Sha1::Sha1() { sha1_init(&ctx_); }

void Sha1::update(std::string_view bytes) {
  sha1_update(&ctx_, bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()));
}

std::array<std::uint8_t, 20> Sha1::digest() const {
  sha1_ctx done = ctx_;  // sha1_digest() pads and resets the context it is given
  std::array<std::uint8_t, 20> out;
  sha1_digest(&done, out.size(), out.data());
  return out;
}

Sha1 node_id_hasher() {
  Sha1 s;
  s.update(std::string_view(reinterpret_cast<const char*>(kNamespaceOid), sizeof kNamespaceOid));
  return s;
}

std::string node_id(const Sha1& hasher) {
  std::array<std::uint8_t, 20> d = hasher.digest();
  d[6] = static_cast<std::uint8_t>((d[6] & 0x0f) | 0x50);  // version 5
  d[8] = static_cast<std::uint8_t>((d[8] & 0x3f) | 0x80);  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[d[i] >> 4]);
    out.push_back(kHex[d[i] & 15]);
  }
  return out;
}

std::string node_id_of_path(std::string_view path) {
  Sha1 s = node_id_hasher();
  s.update(path);
  return node_id(s);
}

}  // namespace fg::formats::deepflow
