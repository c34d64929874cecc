#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "fg/error.h"
#include "formats/gzip.h"
#include "formats/input.h"
#include "formats/output.h"

using namespace fg;
using fg::formats::Input;
using fg::formats::Output;

namespace {
std::string gzip(const std::string& data) { return fg::formats::gzip_compress(data); }
}  // namespace

TEST_CASE("gzip is inflated by its magic bytes, members concatenated") {
  auto in = Input::from_bytes("x.folded", gzip("a;b 1\n") + gzip("c 2\n"));
  CHECK(in->head(4) == "a;b ");
  CHECK(std::string(formats::read_all(*in).view()) == "a;b 1\nc 2\n");
  CHECK(in->compressed());
  auto plain = Input::from_bytes("y.gz", "not gzip at all");
  CHECK(std::string(formats::read_all(*plain).view()) == "not gzip at all");
  CHECK(!plain->compressed());
}

TEST_CASE("read_all holds a large input whole, and gives back the pages of a prefix") {
  // 5 MiB of distinct lines: the buffer grows several times past its first
  // 1 MiB; a plain file in memory is handed out as it is (as mapped).
  std::string text;
  for (int i = 0; text.size() < (5 << 20); ++i) text += "line " + std::to_string(i) + ";frame 1\n";
  for (bool zipped : {true, false}) {
    auto in = Input::from_bytes("big", zipped ? gzip(text) : text, formats::kDefaultMaxInflated, !zipped);
    formats::InputBytes all = formats::read_all(*in);
    REQUIRE(all.view().size() == text.size());
    CHECK(all.view() == text);
    // After giving back the first 4.5 MiB (pages go 4 MiB or more at a
    // time), the rest reads as before.
    all.release(1 << 20);
    all.release(9 << 19);
    CHECK(all.view().substr(9 << 19) == std::string_view(text).substr(9 << 19));
    formats::InputBytes moved = std::move(all);
    CHECK(moved.view().substr(9 << 19) == std::string_view(text).substr(9 << 19));
    CHECK(all.view().empty());
  }
}

TEST_CASE("truncated gzip is an error naming the file") {
  std::string z = gzip(std::string(100000, 'x'));
  auto in = Input::from_bytes("cut.gz", z.substr(0, z.size() / 2));
  CHECK_THROWS_WITH_AS(formats::read_all(*in), doctest::Contains("cut.gz: truncated gzip data"), Error);
}

TEST_CASE("truncated gzip: the bytes given and the offset named do not depend on the reads' sizes") {
  // Long repeats make matches that cross the end of a small read: inflate
  // holds the rest of such a match after taking the last input bytes, so
  // it must be asked for it once the input has run out.
  std::string text;
  for (int i = 0; i < 4000; ++i)
    text += "a;b" + std::to_string(i * 7919 % 1000) + ";c " + std::to_string(i) + "\n";
  const std::string z = gzip(text);
  for (const std::size_t cut : {z.size() / 3, z.size() * 3 / 4, z.size() - 9}) {
    CAPTURE(cut);
    std::string whole_error;
    std::string whole_bytes;
    for (const std::size_t step : {65536, 4096, 300, 100, 7, 3, 1}) {
      CAPTURE(step);
      auto in = Input::from_bytes("cut.gz", z.substr(0, cut));
      std::string got;
      std::string error;
      try {
        std::string buf(step, '\0');
        for (std::size_t k; (k = in->read(buf.data(), step)) > 0;) got.append(buf, 0, k);
      } catch (const Error& e) {
        error = e.what();
      }
      CHECK(error.rfind("cut.gz: truncated gzip data after " + std::to_string(got.size()) + " inflated bytes",
                        0) == 0);
      CHECK(got == text.substr(0, got.size()));
      if (whole_error.empty()) whole_error = error, whole_bytes = got;
      CHECK(error == whole_error);
      CHECK(got.size() == whole_bytes.size());
    }
  }
}

TEST_CASE("a gzip bomb is refused past the limit") {
  std::string z = gzip(std::string(1 << 20, '\0'));
  auto in = Input::from_bytes("bomb.gz", z, 1000);
  CHECK_THROWS_WITH_AS(formats::read_all(*in),
                       "bomb.gz: inflates to more than 1000 bytes; refusing (a gzip bomb?)", Error);
}

TEST_CASE("gzip inflated whole: a first member larger than the room the last one's size asks for") {
  // The last member's trailer says 4 bytes; the first inflates to 3 MiB,
  // so the room grows (twice) and that member is inflated again.
  std::string text;
  for (int i = 0; text.size() < (3 << 20); ++i) text += "frame " + std::to_string(i) + " 1\n";
  auto in = Input::from_bytes("m.gz", gzip(text) + gzip("end\n"));
  CHECK(std::string(formats::read_all(*in).view()) == text + "end\n");
  CHECK(in->offset() == text.size() + 4);
  // Nothing is left to read after it.
  char c;
  CHECK(in->read(&c, 1) == 0);
}

TEST_CASE("gzip files opened by path are inflated whole, damage is reported at its offset") {
  auto dir = std::filesystem::temp_directory_path() / ("fg-gz-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return (dir / name).string();
  };
  std::string text;
  for (int i = 0; text.size() < (2 << 20); ++i) text += "a;b;c" + std::to_string(i % 977) + " 3\n";
  const std::string whole = write("whole.gz", gzip(text));
  auto in = Input::open(whole);
  CHECK(in->head(6) == "a;b;c0");
  CHECK(std::string(formats::read_all(*in).view()) == text);
  // Bytes after the member that are not gzip: the offset where they start.
  const std::string tail = write("tail.gz", gzip(text) + "not gzip");
  const std::string at =
      "tail.gz: corrupt gzip data after " + std::to_string(text.size()) + " inflated bytes";
  CHECK_THROWS_WITH_AS(formats::read_all(*Input::open(tail)), doctest::Contains(at.c_str()), Error);
  // A bomb past a limit above the first room given (1 MiB).
  const std::string bomb = write("bomb.gz", gzip(std::string(8 << 20, '\0')));
  CHECK_THROWS_WITH_AS(
      formats::read_all(*Input::open(bomb, 3 << 20)),
      doctest::Contains("bomb.gz: inflates to more than 3145728 bytes; refusing (a gzip bomb?)"), Error);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a missing file is an error naming it") {
  CHECK_THROWS_WITH_AS(Input::open("/nonexistent/p.folded"),
                       "/nonexistent/p.folded: cannot open: No such file or directory", Error);
}

TEST_CASE("output appears only when committed") {
  auto dir = std::filesystem::temp_directory_path() / ("fg-out-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string target = (dir / "out.svg").string();
  {
    Output out(target, false);
    out.stream() << "half";
    // no commit: as when a writer throws
  }
  CHECK(!std::filesystem::exists(target));
  CHECK(std::filesystem::is_empty(dir));
  {
    Output out(target, false);
    out.stream() << "whole";
    out.commit();
  }
  std::ifstream f(target);
  std::string s;
  std::getline(f, s);
  CHECK(s == "whole");
  std::filesystem::remove_all(dir);
}

TEST_CASE("output to a device stays a device, a symbolic link stays a link") {
  {
    Output out("/dev/null", false);
    out.stream() << "discarded";
    out.commit();
  }
  struct stat st;
  REQUIRE(::stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));

  auto dir = std::filesystem::temp_directory_path() / ("fg-link-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto real = dir / "real.svg", link = dir / "link.svg";
  { std::ofstream(real) << "old"; }
  std::filesystem::create_symlink(real, link);
  {
    Output out(link.string(), false);
    out.stream() << "new";
    out.commit();
  }
  CHECK(std::filesystem::is_symlink(link));
  std::ifstream f(real);
  std::string s;
  std::getline(f, s);
  CHECK(s == "new");
  CHECK_THROWS_WITH_AS(Output(dir.string(), false), (dir.string() + ": is a directory").c_str(), Error);
  std::filesystem::remove_all(dir);
}
