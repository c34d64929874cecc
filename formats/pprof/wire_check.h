// A walk over protobuf wire format that checks a profile.proto message's
// structure (tags, wire types, lengths) before it is parsed, so damage is
// reported as "file: offset 0x..: ..." rather than as a parse failure.
#pragma once

#include <string>
#include <string_view>

namespace fg::formats::pprof {

/// Throws ParseError at the first malformed field of `bytes`, read as a
/// Profile message. `file` names the input in messages.
void check_wire(std::string_view bytes, const std::string& file);

/// How many leading fields of `head` parse as a Profile's fields (stops at
/// the first that does not, or at the end of head); -1 when the first does not.
int count_profile_fields(std::string_view head);

}  // namespace fg::formats::pprof
