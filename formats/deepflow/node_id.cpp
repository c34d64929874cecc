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
  // A 16-word rolling message schedule and one loop per group of 20 rounds,
  // so no round tests which group it is in: every node id costs a block or
  // two, and the writer spends much of its time here.
  std::uint32_t w[16];
  for (int i = 0; i < 16; ++i)
    w[i] = std::uint32_t(p[4 * i]) << 24 | std::uint32_t(p[4 * i + 1]) << 16 |
           std::uint32_t(p[4 * i + 2]) << 8 | std::uint32_t(p[4 * i + 3]);
  std::uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4];
  auto word = [&w](int i) {
    if (i < 16) return w[i];
    std::uint32_t x = rotl(w[(i + 13) & 15] ^ w[(i + 8) & 15] ^ w[(i + 2) & 15] ^ w[i & 15], 1);
    w[i & 15] = x;
    return x;
  };
  auto round = [&](std::uint32_t f, std::uint32_t k, std::uint32_t x) {
    std::uint32_t t = rotl(a, 5) + f + e + k + x;
    e = d, d = c, c = rotl(b, 30), b = a, a = t;
  };
  for (int i = 0; i < 20; ++i) round((b & c) | (~b & d), 0x5A827999, word(i));
  for (int i = 20; i < 40; ++i) round(b ^ c ^ d, 0x6ED9EBA1, word(i));
  for (int i = 40; i < 60; ++i) round((b & c) | (b & d) | (c & d), 0x8F1BBCDC, word(i));
  for (int i = 60; i < 80; ++i) round(b ^ c ^ d, 0xCA62C1D6, word(i));
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
