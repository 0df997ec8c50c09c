// Writes a stream as a board would (the drainer, a ring of samples, console text before it) to a
// file, for tests/stream/check_stream.py's own tests (tests/host/stream/CMakeLists.txt).
//   stream_file FILE [corrupt|cut]
// corrupt: one byte in the middle flipped (the check must fail); cut: the last frame cut
// short, as a board killed mid-frame leaves it (the check must pass).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "profiler/sampler.hpp"
#include "profiler/stream/drainer.hpp"

namespace {
std::vector<std::uint8_t> out;
std::uint32_t now = 0;
std::size_t put(void*, const std::uint8_t* p, std::size_t n) {
  out.insert(out.end(), p, p + n);
  return n;
}
std::uint32_t clock(void*) { return now; }
void describe(void*, pmu::dump::Writer& w, std::uint64_t dropped) {
  w.begin({"host", "none", 1000, 32, 4});
  w.counters(nullptr, 0);
  w.sample_source({pmu::dump::SampleSourceKind::timer, pmu::dump::kNoCounter, 500000, dropped});
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const char* msg = "boot: console text before the stream\n";
  out.assign(msg, msg + std::strlen(msg));
  prof::SampleRing<256> ring;
  pmu::stream::Source src;
  src.describe = &describe;
  src.clock = &clock;
  src.clock_hz = 1000;
  pmu::stream::Drainer<prof::SampleRing<256>> d(ring, {&put, nullptr}, src);
  for (std::uint32_t i = 0; i < 1000; ++i) {
    ring.record(0x8000 + (i * 37 % 512) * 4, 0x9000 + (i % 7) * 4);
    if (i % 2) d.poll();
    ++now;
  }
  for (int i = 0; i < 200; ++i, ++now) d.poll();
  while (d.pending()) d.poll();
  if (argc > 2 && std::strcmp(argv[2], "corrupt") == 0) out[out.size() / 2] ^= 0x40;
  if (argc > 2 && std::strcmp(argv[2], "cut") == 0) {
    ring.record(0x8000, 0x9000);
    now += 100;
    d.poll();
    out.resize(out.size() - 3);
  }
  std::FILE* f = std::fopen(argv[1], "wb");
  if (f == nullptr) return 1;
  std::fwrite(out.data(), 1, out.size(), f);
  return std::fclose(f) == 0 ? 0 : 1;
}
