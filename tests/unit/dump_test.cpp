#include "fg/dump.h"

#include <doctest/doctest.h>

#include <sstream>

#include "fg/builder.h"
#include "test_util.h"

using namespace fg;

TEST_CASE("the dump is independent of reading order") {
  Profile a = test::folded("x;y 1\na;b 2\n");
  Profile b = test::folded("a;b 2\nx;y 1\n");
  std::ostringstream da, db;
  dump_profile(a, da);
  dump_profile(b, db);
  CHECK(da.str() == db.str());
}

TEST_CASE("the dump shows every field of a frame and escapes names") {
  ProfileBuilder b(std::vector<ValueType>{{"cpu", "nanoseconds"}});
  FunctionId fn = b.function("ns::f(int)", "_ZN2ns1fEi", "src/f.cc", 3);
  FrameId f = b.frame(fn, FrameKind::kInlined, 17, 0x4005d0, b.intern("libx.so"));
  FrameId odd = b.frame("semi;colon\nnewline\\", FrameKind::kKernel);
  std::vector<std::int64_t> v{100};
  b.add_sample(std::vector<FrameId>{odd, f}, v,
               b.labels({Label{b.intern("thread"), b.intern("main")},
                         Label{b.intern("bytes"), {}, 64, b.intern("bytes"), true}}));
  b.metadata().source_format = "test";
  b.metadata().period = 10000000;
  b.metadata().period_type = {"cpu", "nanoseconds"};
  Profile p = std::move(b).finish();
  std::ostringstream out;
  dump_profile(p, out);
  CHECK(out.str() ==
        "fg-dump 1\n"
        "format: test\n"
        "value 0: cpu/nanoseconds\n"
        "default value: 0\n"
        "period: 10000000 cpu/nanoseconds\n"
        "totals: 100\n"
        "samples: 1\n"
        "semi\\;colon\\nnewline\\\\ [kernel];ns::f(int) [inlined] (src/f.cc:17) {_ZN2ns1fEi} @0x4005d0 "
        "<libx.so> | 100 | bytes=64[bytes] thread=\"main\"\n");
}
