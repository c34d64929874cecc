#include "formats/dump/dump.h"

#include "fg/dump.h"

namespace fg::formats::dump {

void write(const Profile& profile, const WriteOptions&, std::ostream& out, Diagnostics&) {
  check_expansion(profile, "dump");
  dump_profile(profile, out);
}

}  // namespace fg::formats::dump
