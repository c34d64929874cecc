#include <doctest/doctest.h>

#include "fg/names.h"
#include "fg/units.h"

using namespace fg;

TEST_CASE("units: scaled as pprof scales (auto, minimum, a named unit, unknown units)") {
  CHECK(units::scaled_label(13610000000, "nanoseconds", "auto") == "13.61s");
  CHECK(units::scaled_label(70000000, "nanoseconds", "s") == "0.07s");
  CHECK(units::scaled_label(1536, "bytes", "minimum") == "1.50kB");
  CHECK(units::scaled_label(64, "bytes", "auto") == "64B");
  CHECK(units::scaled_label(3 * 1024 * 1024, "Bytes", "auto") == "3MB");  // any case, plural ignored
  CHECK(units::scaled_label(-2048, "bytes", "auto") == "-2kB");
  CHECK(units::scaled_label(1361, "count", "count") == "1361");
  CHECK(units::scaled_label(0, "nanoseconds", "s") == "0");
  CHECK(units::scaled_label(7, "widgets", "widgets") == "7widgets");
  CHECK(units::scaled_label(7, "widgets", "auto") == "7");
  CHECK(units::scaled_label(5400000000000, "nanoseconds", "auto") == "1.50hrs");
}

TEST_CASE("units: fixed-point values (fractional counts) are scaled as the numbers they are") {
  // Counts are not scaled: written exactly, with the digits they have.
  CHECK(units::scaled_label(3352, "count", "count", 1) == "335.2");
  CHECK(units::scaled_label(125, "count", "auto", 3) == "0.125");
  CHECK(units::scaled_label(-5, "count", "auto", 1) == "-0.5");
  CHECK(units::scaled_label(3350, "count", "auto", 1) == "335");
  CHECK(units::label(15, "widgets", 1) == "1.5");
  // Scaled units divide first: 1536.5 bytes.
  CHECK(units::scaled_label(15365, "bytes", "auto", 1) == "1.50kB");
  CHECK(units::scale(15, "nanoseconds", "nanoseconds", 1).value == doctest::Approx(1.5));
  // The output unit is chosen from the values, not their fixed-point digits:
  // 0.5 ms is 500 us, not 5000 (the stored integer).
  CHECK(units::output_unit(5, 5, "milliseconds", 1) == "us");
  CHECK(units::output_unit(5, 5, "count", 1) == "count");
}

TEST_CASE("units: percentages padded and trimmed as pprof prints them") {
  CHECK(units::percentage(1, 2) == "50.00%");
  CHECK(units::percentage(1, 1000) == "  0.1%");
  CHECK(units::percentage(9999, 10000) == "  100%");
  CHECK(units::percent(1, 1000) == "0.1%");
  CHECK(units::percent(5, 0) == "0%");
}

TEST_CASE("units: the output unit is the smallest shown value's, or 100 times it") {
  CHECK(units::output_unit(10000000, 13610000000, "nanoseconds") == "s");  // 10ms * 100 = 1s
  CHECK(units::output_unit(100000, 13610000000, "nanoseconds") == "ms");   // 0.1ms * 100 = 10ms
  CHECK(units::output_unit(512, 85000000, "bytes") == "kB");
  CHECK(units::output_unit(3, 1361, "count") == "count");
  CHECK(units::output_unit(0, 2048, "bytes") == "kB");
}

TEST_CASE("names: C++ names simplified as pprof's reports show them") {
  CHECK(simplify_cpp_name("ns::Pool<int, std::allocator<int> >::get(unsigned long) const") ==
        "ns::Pool::get const");
  CHECK(simplify_cpp_name("_ZN2ns4Pool3getEm") == "ns::Pool::get");
  CHECK(simplify_cpp_name("(anonymous namespace)::work(int)") ==
        "::work");  // as pprof: a group like any other
  CHECK(simplify_cpp_name("main.(*List[...]).Push") == "main.(*List[...]).Push");  // Go generics untouched
  CHECK(simplify_cpp_name("java.util.HashMap.<init>") == "java.util.HashMap.<init>");
  CHECK(simplify_cpp_name("main.fib") == "main.fib");
  CHECK(simplify_cpp_name("broken)(name<") == "broken)(name<");  // unbalanced: left alone
  CHECK(simplify_cpp_name("<tag>(x)") == "<tag>(x)");            // nothing would be left
}

TEST_CASE("names: node labels shortened as pprof's ShortenFunctionName") {
  CHECK(shorten_function_name("compress/flate.(*compressor).deflate") == "flate.(*compressor).deflate");
  CHECK(shorten_function_name("github.com/x/y/v2/pkg.F") == "pkg.F");
  CHECK(shorten_function_name("java.util.concurrent.ThreadPoolExecutor.runWorker(Worker)") ==
        "ThreadPoolExecutor.runWorker");
  CHECK(shorten_function_name("(anonymous namespace)::outer::Inner::run") == "Inner::run");
  CHECK(shorten_function_name("main.fib") == "main.fib");
  const std::string long_name(5000, 'a');
  CHECK(shorten_function_name(long_name + "/x.f") == "x.f");  // any length, as Go's regexp
  CHECK(shorten_function_name("pkg/x\xff.f") == "x\xff.f");   // a byte of bad UTF-8 is a character, as in Go
}
