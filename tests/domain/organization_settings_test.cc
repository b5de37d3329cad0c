#include "domain/organization_settings.h"

#include <gtest/gtest.h>

namespace esign {
namespace {

std::string Issue(const Result<std::string>& result) {
  return result ? "" : result.error().details.front().field;
}

TEST(FrameOriginTest, NormalizesSchemeHostAndDefaultPort) {
  EXPECT_EQ(*NormalizedFrameOrigin("https://App.Example.com", "o"), "https://app.example.com");
  EXPECT_EQ(*NormalizedFrameOrigin("https://app.example.com:443", "o"), "https://app.example.com");
  EXPECT_EQ(*NormalizedFrameOrigin("https://app.example.com:8443", "o"),
            "https://app.example.com:8443");
  EXPECT_EQ(*NormalizedFrameOrigin("http://localhost:3000", "o"), "http://localhost:3000");
  EXPECT_EQ(*NormalizedFrameOrigin("http://127.0.0.1:80", "o"), "http://127.0.0.1");
  EXPECT_EQ(*NormalizedFrameOrigin("http://[::1]:8080", "o"), "http://[::1]:8080");
}

TEST(FrameOriginTest, RefusesAnythingButAnOrigin) {
  for (const char* bad : {"",
                          "*",
                          "https://*.example.com",
                          "app.example.com",
                          "https://",
                          "https://app.example.com/",
                          "https://app.example.com/path",
                          "https://app.example.com?x=1",
                          "https://app.example.com#f",
                          "https://user@app.example.com",
                          "https://app.example.com:0",
                          "https://app.example.com:65536",
                          "https://app.example.com:08",
                          "https://app..example.com",
                          "ftp://app.example.com",
                          "javascript://x",
                          "http://app.example.com",
                          "http://10.0.0.1",
                          "https://exa mple.com",
                          "'self'",
                          "https://a.example.com https://b.example.com",
                          "https://app.example.com;"}) {
    auto origin = NormalizedFrameOrigin(bad, "frameOrigins[0]");
    EXPECT_FALSE(origin) << bad << " -> " << origin.value_or("");
    EXPECT_EQ(Issue(origin), "frameOrigins[0]") << bad;
  }
  EXPECT_FALSE(NormalizedFrameOrigin("https://" + std::string(300, 'a') + ".com", "o"));
}

TEST(FrameOriginTest, ListDropsRepeatsAndHasALimit) {
  auto origins = NormalizedFrameOrigins({"https://a.example", "https://A.example:443"});
  ASSERT_TRUE(origins);
  EXPECT_EQ(*origins, std::vector<std::string>{"https://a.example"});
  auto bad = NormalizedFrameOrigins({"https://a.example", "nope"});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().details.front().field, "frameOrigins[1]");
  EXPECT_FALSE(NormalizedFrameOrigins(std::vector<std::string>(11, "https://a.example")));
}

TEST(AccentColorTest, ContrastIsWcagsRatio) {
  EXPECT_NEAR(ContrastWithWhite("#000000"), 21.0, 1e-9);
  EXPECT_NEAR(ContrastWithWhite("#ffffff"), 1.0, 1e-9);
  // #767676 is the lightest grey with 4.5:1 on white; #777777 falls just short.
  EXPECT_GE(ContrastWithWhite("#767676"), 4.5);
  EXPECT_LT(ContrastWithWhite("#777777"), 4.5);
}

TEST(AccentColorTest, AcceptsDarkEnoughColoursOnly) {
  EXPECT_EQ(*NormalizedAccentColor("#1F5FBF", "accentColor"), "#1f5fbf");
  EXPECT_EQ(*NormalizedAccentColor("#767676", "accentColor"), "#767676");
  for (const char* bad : {"#777777", "#ffff00", "#ffffff", "1f5fbf", "#1f5fb", "#1f5fbfa",
                          "#gggggg", "red", "", "rgb(0,0,0)"}) {
    auto color = NormalizedAccentColor(bad, "accentColor");
    EXPECT_FALSE(color) << bad;
    EXPECT_EQ(Issue(color), "accentColor") << bad;
  }
}

TEST(OrganizationSettingsTest, EventDataRoundTrips) {
  const OrganizationSettings settings{
      {"https://a.example", "http://localhost:3000"}, "#1f5fbf", std::string(64, 'a')};
  EXPECT_EQ(OrganizationSettingsFrom(OrganizationSettingsData(settings)), settings);
  EXPECT_EQ(OrganizationSettingsFrom(boost::json::object{{"frameOrigins", 3}}),
            OrganizationSettings{});
}

}  // namespace
}  // namespace esign
