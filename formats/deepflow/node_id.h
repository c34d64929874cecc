// DeepFlow's node ids: UUIDv5 (RFC 4122, SHA-1 based) in the OID namespace
// of a node's frame path "f1;f2;...;fk", as the querier computes them with
// satori's uuid.NewV5(uuid.NamespaceOID, path). The hash is kept open at each
// depth of a walk, so a child's id costs the bytes of its own name only.
#pragma once

#include <nettle/sha1.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace fg::formats::deepflow {

/// An incremental SHA-1 (FIPS 180-4), nettle's. Copyable: a copy continues
/// from the bytes hashed so far.
class Sha1 {
 public:
  Sha1();
  void update(std::string_view bytes);
  /// The 20-byte digest of everything passed to update(); this object is
  /// left unchanged.
  std::array<std::uint8_t, 20> digest() const;

 private:
  sha1_ctx ctx_;  // a plain struct: copying it copies the state
};

/// A SHA-1 that already holds the OID namespace UUID
/// (6ba7b812-9dad-11d1-80b4-00c04fd430c8): update() it with a path, then
/// node_id() gives the path's UUIDv5.
Sha1 node_id_hasher();

/// The lower-case "xxxxxxxx-xxxx-5xxx-yxxx-xxxxxxxxxxxx" form of the UUIDv5
/// whose hash state is `hasher`.
std::string node_id(const Sha1& hasher);

/// node_id() of `path` ("f1;f2;...;fk") in one call.
std::string node_id_of_path(std::string_view path);

}  // namespace fg::formats::deepflow
