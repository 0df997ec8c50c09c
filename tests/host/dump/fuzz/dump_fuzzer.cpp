// libFuzzer target: any bytes through both carriers and the binary decoder, then every report
// format (with and without symbols). The decoders may only throw DecodeError and the formats
// ReportRefused; anything else (a crash, a sanitizer report, another exception, a hang) is a bug.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <vector>

#include "fixtures.hpp"
#include "tools/dumpread/decode_error.hpp"
#include "tools/dumpread/load.hpp"
#include "tools/report/diff.hpp"
#include "tools/report/formats.hpp"
#include "tools/report/stat.hpp"

namespace {

void reports(const pmukit::LoadedDump& loaded, const pmukit::SymbolTable& symbols) {
  const pmukit::Profile profile = pmukit::build_profile(loaded.dump, symbols);
  pmukit::ReportOptions options;
  options.carrier = loaded.carrier;
  options.elf = symbols.empty() ? "" : "fw.elf";
  for (const std::string& format : pmukit::report_formats()) {
    std::ostringstream os;
    try {
      pmukit::write_report(os, format, {loaded.dump, profile, options});
    } catch (const pmukit::ReportRefused&) {  // a format that cannot show this dump: said, not guessed
    }
  }
  options.csv_table = "profile";
  std::ostringstream os;
  pmukit::write_report(os, "csv", {loaded.dump, profile, options});
  pmukit::write_dump_json(os, loaded.dump, loaded.carrier);
}

// pmukit stat (alone and as three runs of one program) and pmukit diff against itself: refusals
// are said, never guessed.
void stat_and_diff(const pmukit::Dump& d) {
  try {
    const pmukit::StatReport one = pmukit::build_stat({{"fuzz", &d}});
    const pmukit::StatReport three = pmukit::build_stat({{"a", &d}, {"b", &d}, {"c", &d}});
    for (const std::string& format : pmukit::stat_formats()) {
      std::ostringstream os;
      pmukit::write_stat(os, one, format);
      pmukit::write_stat(os, three, format);
    }
    pmukit::stat_warnings(one);
  } catch (const pmukit::StatRefused&) {
  }
  try {
    std::ostringstream os;
    pmukit::write_diff(os, pmukit::diff_dumps(d, nullptr, d, nullptr, 1.0), "base", "new");
  } catch (const pmukit::DiffRefused&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const pmukit::SymbolTable symbols = dumptest::synthetic_symbols();
  static const pmukit::SymbolTable none;
  const std::vector<unsigned char> input(data, data + size);
  for (std::size_t frame : {0, 1, 2}) {
    try {
      const pmukit::LoadedDump loaded = pmukit::load_dump(input, frame);
      // Bound the report work per input so the fuzzer spends its time on decoding.
      if (loaded.dump.samples.size() + loaded.dump.histogram.size() > 100000) return 0;
      reports(loaded, symbols);
      reports(loaded, none);
      stat_and_diff(loaded.dump);
    } catch (const pmukit::DecodeError&) {
    }
  }
  return 0;
}
