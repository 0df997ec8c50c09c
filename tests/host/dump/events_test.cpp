// The `events` listing with the PMU catalogs the drivers publish (hal/<pmu>/events.hpp): every
// event and preset appears, in both the text and the JSON form. The exact layout is covered by
// the golden files (test catalog); this checks the real tables go through.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "hal/e500/events.hpp"
#include "hal/xscale/events.hpp"
#include "tools/events/events_listing.hpp"

namespace {

const pmu::PmuCatalog kReal[] = {pmu::xscale::kXsc2Catalog, pmu::e500::catalog};

TEST(EventsListing, RealCatalogsListEveryEventAndPreset) {
  std::ostringstream text, json;
  pmukit::write_events_text(text, kReal);
  pmukit::write_events_json(json, kReal);
  for (const pmu::PmuCatalog& c : kReal) {
    EXPECT_NE(text.str().find(std::string(c.id) + ": "), std::string::npos) << c.id;
    EXPECT_NE(json.str().find("\"id\": \"" + std::string(c.id) + "\""), std::string::npos);
    for (std::size_t i = 0; i < c.num_events; ++i) {
      EXPECT_NE(text.str().find(std::string("    ") + c.events[i].name + " "), std::string::npos)
          << c.id << " " << c.events[i].name;
      EXPECT_NE(json.str().find("\"name\": \"" + std::string(c.events[i].name) + "\""), std::string::npos);
    }
    for (std::size_t i = 0; i < c.num_presets; ++i)
      EXPECT_NE(text.str().find(std::string("    ") + pmu::preset_name(c.presets[i].preset) + " "),
                std::string::npos);
  }
}

}  // namespace
