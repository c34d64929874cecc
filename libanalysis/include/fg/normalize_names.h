// Names that change from one build of a program to the next, made equal:
// the transform behind fg-diff's default and the tools' --norm. Without it,
// two recordings of the same code differ in every lambda, clone and hashed
// function, and a comparison shows them all as gone and new.
//
// Rules, each applied wherever its suffix ends the name or (JVM) the class
// part before ".method":
//   JVM hidden classes and lambdas, as async-profiler's converter --norm cuts
//   a class name at a '.' or '/' followed by a digit:
//     Foo$$Lambda$2.0x00007fba8c001800.run       -> Foo$$Lambda$2.run
//     Foo$$Lambda$17/0x0000000800c03a38.run      -> Foo$$Lambda$17.run
//     Foo$$Lambda$89+0x00007f675c009000/927.run  -> Foo$$Lambda$89.run  (the JDK's recorder)
//     Foo$$Lambda$887/1827771163.run             -> Foo$$Lambda$887.run (JDK 8)
//     Foo$$Lambda$62+0x800000063.run             -> Foo$$Lambda$62.run  (archived; a-p keeps it)
//   (the lambda's number stays, as with async-profiler);
//   GCC and Clang clone suffixes: .isra.N, .constprop.N, .part.N, .cold,
//     .cold.N, .localalias, .lto_priv.N, .llvm.N, in any sequence
//     (foo.constprop.0.isra.0 -> foo), and the demangled " [clone .isra.0]";
//   Rust's symbol hash: "::h" and exactly 16 lower-case hex digits at the end.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "fg/profile.h"

namespace fg {

/// `name` without the parts that change from build to build (see above);
/// `name` itself when it has none. Pure; linear in the name's length.
std::string normalize_name(std::string_view name);

/// `profile` with every function's name normalised; frames whose names
/// become equal merge, and so do samples whose stacks do. A renamed
/// function loses its system name (the raw name carries the same suffix).
/// Sets `*renamed` (when given) to the number of functions renamed; returns
/// `profile` unchanged when there are none.
Profile normalize_names(Profile profile, std::size_t* renamed = nullptr);

/// normalize_names() of a profile the caller keeps: nothing (and no copy)
/// when no name changes.
std::optional<Profile> normalized_names(const Profile& profile, std::size_t* renamed = nullptr);

}  // namespace fg
