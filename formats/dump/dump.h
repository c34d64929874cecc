// `--to dump`: the canonical text dump of libanalysis, as an output format.
#pragma once

#include <ostream>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/options.h"

namespace fg::formats::dump {

void write(const Profile& profile, const WriteOptions& options, std::ostream& out, Diagnostics& diagnostics);

}  // namespace fg::formats::dump
