#include "formats/deepflow/node_id.h"

#include <cstring>

namespace fg::formats::deepflow {

namespace {

std::uint32_t rotl(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

// uuid.NamespaceOID, 6ba7b812-9dad-11d1-80b4-00c04fd430c8, as bytes.
constexpr std::uint8_t kNamespaceOid[16] = {0x6b, 0xa7, 0xb8, 0x12, 0x9d, 0xad, 0x11, 0xd1,
                                            0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};

}  // namespace

Sha1::Sha1() : h_{0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0} {}

void Sha1::block(const std::uint8_t* p) {
  std::uint32_t w[80];
  for (int i = 0; i < 16; ++i)
    w[i] = std::uint32_t(p[4 * i]) << 24 | std::uint32_t(p[4 * i + 1]) << 16 |
           std::uint32_t(p[4 * i + 2]) << 8 | std::uint32_t(p[4 * i + 3]);
  for (int i = 16; i < 80; ++i) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
  std::uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4];
  for (int i = 0; i < 80; ++i) {
    std::uint32_t f, k;
    if (i < 20) f = (b & c) | (~b & d), k = 0x5A827999;
    else if (i < 40) f = b ^ c ^ d, k = 0x6ED9EBA1;
    else if (i < 60) f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDC;
    else f = b ^ c ^ d, k = 0xCA62C1D6;
    std::uint32_t t = rotl(a, 5) + f + e + k + w[i];
    e = d, d = c, c = rotl(b, 30), b = a, a = t;
  }
  h_[0] += a, h_[1] += b, h_[2] += c, h_[3] += d, h_[4] += e;
}

void Sha1::update(std::string_view bytes) {
  auto p = reinterpret_cast<const std::uint8_t*>(bytes.data());
  std::size_t n = bytes.size();
  length_ += n;
  if (buf_len_ > 0) {
    std::size_t take = std::min(n, 64 - buf_len_);
    std::memcpy(buf_ + buf_len_, p, take);
    buf_len_ += take, p += take, n -= take;
    if (buf_len_ < 64) return;
    block(buf_);
    buf_len_ = 0;
  }
  for (; n >= 64; p += 64, n -= 64) block(p);
  std::memcpy(buf_, p, n);
  buf_len_ = n;
}

std::array<std::uint8_t, 20> Sha1::digest() const {
  Sha1 s = *this;
  const std::uint64_t bits = length_ * 8;
  static constexpr char kPad[64] = {'\x80'};
  s.update(std::string_view(kPad, 1 + (119 - buf_len_) % 64));
  char len[8];
  for (int i = 0; i < 8; ++i) len[i] = static_cast<char>(bits >> (56 - 8 * i));
  s.update(std::string_view(len, 8));
  std::array<std::uint8_t, 20> out;
  for (int i = 0; i < 20; ++i) out[i] = static_cast<std::uint8_t>(s.h_[i / 4] >> (24 - 8 * (i % 4)));
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
