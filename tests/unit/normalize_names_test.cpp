#include "fg/normalize_names.h"

#include <doctest/doctest.h>

#include <vector>

#include "fg/builder.h"
#include "test_util.h"

using namespace fg;

TEST_CASE("normalize_name: JVM lambda and hidden-class addresses, as async-profiler's --norm") {
  // async-profiler's own form, the JDK's hidden-class name (15+), the JDK
  // recorder's form and JDK 8's: the address or hash goes, the number stays.
  CHECK(normalize_name("Foo$$Lambda$2.0x00007fba8c001800.run") == "Foo$$Lambda$2.run");
  CHECK(normalize_name("Foo$$Lambda$17/0x0000000800c03a38.run") == "Foo$$Lambda$17.run");
  CHECK(normalize_name("CpuRecursion$$Lambda$89+0x00007f675c009000/927327686.run") ==
        "CpuRecursion$$Lambda$89.run");
  CHECK(normalize_name("Worker$$Lambda$887/1827771163.execute") == "Worker$$Lambda$887.execute");
  // A lambda from the JDK's class-data archive: a short address, with or
  // without the hash (async-profiler's rule keeps "+0x800000063").
  CHECK(normalize_name("Adapter$$Lambda$62+0x800000063/1752203484.run") == "Adapter$$Lambda$62.run");
  CHECK(normalize_name("Adapter$$Lambda$62+0x800000063.run") == "Adapter$$Lambda$62.run");
  CHECK(normalize_name("java/util/stream/Collectors$$Lambda$15.0x00007fba8c042d80.accept") ==
        "java/util/stream/Collectors$$Lambda$15.accept");
  CHECK(normalize_name("java.lang.invoke.LambdaForm$MH/0x0000000800c0c000.invoke") ==
        "java.lang.invoke.LambdaForm$MH.invoke");
  CHECK(normalize_name("Foo$$Lambda$2.0x00007fba8c001800") == "Foo$$Lambda$2");  // an allocated class
  // Not hidden classes: a Go package path, an offset in a module, a path
  // segment of digits without a '$' class before it, a hex-looking method.
  CHECK(normalize_name("github.com/x/2fa.Verify") == "github.com/x/2fa.Verify");
  CHECK(normalize_name("libc.so.6+0x1abc") == "libc.so.6+0x1abc");
  CHECK(normalize_name("[vdso]+0x9f0") == "[vdso]+0x9f0");
  CHECK(normalize_name("example.com/v1/123.Handler") == "example.com/v1/123.Handler");
  CHECK(normalize_name("0xdeadbeef") == "0xdeadbeef");
  CHECK(normalize_name("Foo.0xcafe_thing") == "Foo.0xcafe_thing");
  CHECK(normalize_name("Foo$$Lambda$2.run") == "Foo$$Lambda$2.run");
}

TEST_CASE("normalize_name: GCC and Clang clone suffixes") {
  CHECK(normalize_name("parse_header.isra.0") == "parse_header");
  CHECK(normalize_name("parse_header.constprop.1") == "parse_header");
  CHECK(normalize_name("parse_header.cold") == "parse_header");
  CHECK(normalize_name("parse_header.cold.3") == "parse_header");
  CHECK(normalize_name("parse_header.part.0") == "parse_header");
  CHECK(normalize_name("parse_header.localalias") == "parse_header");
  CHECK(normalize_name("parse_header.constprop.0.isra.0") == "parse_header");
  CHECK(normalize_name("parse_header.part.0.cold") == "parse_header");
  CHECK(normalize_name("parse_header.lto_priv.0") == "parse_header");
  CHECK(normalize_name("parse_header.llvm.8841211405297736011") == "parse_header");
  CHECK(normalize_name("ns::f(int) [clone .isra.0]") == "ns::f(int)");
  CHECK(normalize_name("ns::f(int) [clone .constprop.0] [clone .isra.0]") == "ns::f(int)");
  CHECK(normalize_name("ns::f(int) [clone .constprop.0.isra.0]") == "ns::f(int)");
  CHECK(normalize_name("ns::f() [clone .localalias]") == "ns::f()");
  CHECK(normalize_name("ns::f() [clone .cold]") == "ns::f()");
  // Words that only look like them stay.
  CHECK(normalize_name("foo.cold_path") == "foo.cold_path");
  CHECK(normalize_name("main.part") == "main.part");
  CHECK(normalize_name("main.isra") == "main.isra");
  CHECK(normalize_name("foo.isra.x") == "foo.isra.x");
  CHECK(normalize_name("foo.partial.0") == "foo.partial.0");
  CHECK(normalize_name("ns::f() [clone .hot]") == "ns::f() [clone .hot]");
  CHECK(normalize_name("ns::f() [clone ]") == "ns::f() [clone ]");
  CHECK(normalize_name(".isra.0") == ".isra.0");  // never the whole name
  CHECK(normalize_name("python3.11") == "python3.11");
}

TEST_CASE("normalize_name: Rust symbol hashes") {
  CHECK(normalize_name("core::fmt::write::h0123456789abcdef") == "core::fmt::write");
  CHECK(normalize_name("<T as core::any::Any>::type_id::hfedcba9876543210") ==
        "<T as core::any::Any>::type_id");
  CHECK(normalize_name("app::run::h0123456789abcdef.llvm.1234") == "app::run");
  CHECK(normalize_name("app::run::h0123456789abcde") == "app::run::h0123456789abcde");      // 15 digits
  CHECK(normalize_name("app::run::h0123456789abcdef0") == "app::run::h0123456789abcdef0");  // 17
  CHECK(normalize_name("app::run::h0123456789ABCDEF") == "app::run::h0123456789ABCDEF");
  CHECK(normalize_name("app::run::hash_table") == "app::run::hash_table");
  CHECK(normalize_name("::h0123456789abcdef") == "::h0123456789abcdef");
}

TEST_CASE("normalize_names: frames whose names become equal merge") {
  ProfileBuilder b(std::vector<ValueType>{{"samples", "count"}});
  const FrameId main = b.frame("main");
  const FrameId a = b.frame(b.function("work.isra.0", "work.isra.0"));
  const FrameId c = b.frame(b.function("work.constprop.1"), FrameKind::kNative);
  const FrameId w = b.frame(b.function("work"));
  const FrameId k = b.frame(b.function("work.cold"), FrameKind::kKernel);
  b.add_sample(std::vector<FrameId>{main, a}, std::vector<std::int64_t>{1});
  b.add_sample(std::vector<FrameId>{main, c}, std::vector<std::int64_t>{2});
  b.add_sample(std::vector<FrameId>{main, w}, std::vector<std::int64_t>{4});
  b.add_sample(std::vector<FrameId>{main, k}, std::vector<std::int64_t>{8});
  std::size_t renamed = 99;
  const Profile p = normalize_names(std::move(b).finish(), &renamed);
  CHECK(renamed == 3);
  // The kernel frame keeps its kind: one name, two frames.
  CHECK(test::dump_samples(p) == "samples: 2\nmain;work [kernel] | 8\nmain;work | 7\n");
  CHECK(p.totals() == std::vector<std::int64_t>{15});

  std::size_t none = 99;
  const Profile same = normalize_names(test::folded("main;a 3\nmain;b 1\n"), &none);
  CHECK(none == 0);
  CHECK(test::collapsed(same) == "main;a 3\nmain;b 1\n");
}
