#include "domain/notifications.h"

#include <gtest/gtest.h>

namespace esign {
namespace {

Details Check(const char* json) {
  Details details;
  CheckNotificationSettings(boost::json::parse(json), "notifications", details);
  return details;
}

void ExpectOne(const Details& details, const std::string& field) {
  ASSERT_EQ(details.size(), 1u) << (details.empty() ? "none" : details[0].field);
  EXPECT_EQ(details[0].field, field);
}

TEST(NotificationsTest, AcceptsEveryEventAndSetting) {
  EXPECT_TRUE(Check(R"({
      "contract.sent": {"enabled": true, "subject": "Sign please", "message": ""},
      "signer.completed": {"enabled": false, "recipients": ["owner"]},
      "contract.completed": {"recipients": ["owner", "signers", "viewers", "copy_recipients"],
                             "attachSignedPdf": false},
      "contract.declined": {"recipients": []},
      "reminder": {"firstAfterDays": 60, "intervalDays": 1, "maxCount": 0}})")
                  .empty());
}

TEST(NotificationsTest, NullInherits) {
  EXPECT_TRUE(Check(R"({"reminder": null, "contract.sent": {"enabled": null}})").empty());
  EXPECT_TRUE(ValidateNotificationSettings(nullptr).has_value());
}

TEST(NotificationsTest, RejectsNonObject) { ExpectOne(Check(R"([])"), "notifications"); }

TEST(NotificationsTest, RejectsUnknownEvent) {
  ExpectOne(Check(R"({"contract.viewed": {"enabled": true}})"), "notifications.contract.viewed");
}

TEST(NotificationsTest, RejectsUnsupportedSetting) {
  ExpectOne(Check(R"({"contract.sent": {"recipients": ["owner"]}})"),
            "notifications.contract.sent.recipients");
  ExpectOne(Check(R"({"signer.completed": {"attachSignedPdf": true}})"),
            "notifications.signer.completed.attachSignedPdf");
}

TEST(NotificationsTest, RejectsWrongTypesAndRanges) {
  ExpectOne(Check(R"({"contract.sent": {"enabled": "yes"}})"),
            "notifications.contract.sent.enabled");
  ExpectOne(Check(R"({"contract.sent": {"subject": ""}})"), "notifications.contract.sent.subject");
  ExpectOne(Check(R"({"reminder": {"intervalDays": 31}})"), "notifications.reminder.intervalDays");
  ExpectOne(Check(R"({"reminder": {"firstAfterDays": 0}})"),
            "notifications.reminder.firstAfterDays");
  ExpectOne(Check(R"({"reminder": {"maxCount": 11}})"), "notifications.reminder.maxCount");
  ExpectOne(Check(R"({"reminder": {"maxCount": 1.5}})"), "notifications.reminder.maxCount");
  ExpectOne(Check(R"({"contract.declined": {"recipients": ["everyone"]}})"),
            "notifications.contract.declined.recipients[0]");
  ExpectOne(Check(R"({"contract.declined": {"recipients": ["owner", "owner"]}})"),
            "notifications.contract.declined.recipients[1]");
  ExpectOne(Check(R"({"contract.declined": {"recipients": "owner"}})"),
            "notifications.contract.declined.recipients");
  ExpectOne(Check(R"({"reminder": true})"), "notifications.reminder");
}

TEST(NotificationsTest, ValidateReturnsTheCode) {
  auto status = ValidateNotificationSettings(boost::json::parse(R"({"x": {}})"));
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().code, ErrorCode::kInvalidNotificationSettings);
}

TEST(NotificationsTest, PlatformDefaultsAreValidAndComplete) {
  EXPECT_TRUE(ValidateNotificationSettings(PlatformNotificationDefaults()).has_value());
  auto resolved = ResolveNotifications(PlatformNotificationDefaults(), {}, {}, {});
  EXPECT_EQ(resolved, PlatformNotificationDefaults());
}

TEST(NotificationsTest, ResolvesSettingBySettingMostSpecificWins) {
  auto platform = PlatformNotificationDefaults();
  auto organization = boost::json::parse(R"({"reminder": {"intervalDays": 5, "maxCount": 1},
      "contract.sent": {"subject": "Org subject", "message": "Org message"}})")
                          .as_object();
  auto tmpl = boost::json::parse(R"({"reminder": {"maxCount": 2},
      "contract.sent": {"subject": "Template subject"}})")
                  .as_object();
  auto contract = boost::json::parse(R"({"contract.sent": {"enabled": false},
      "contract.completed": {"recipients": ["owner"]}})")
                      .as_object();
  auto resolved = ResolveNotifications(platform, organization, tmpl, contract);
  EXPECT_EQ(resolved.at("contract.sent"),
            boost::json::parse(
                R"({"enabled": false, "subject": "Template subject", "message": "Org message"})"));
  EXPECT_EQ(resolved.at("reminder"),
            boost::json::parse(
                R"({"enabled": true, "firstAfterDays": 3, "intervalDays": 5, "maxCount": 2})"));
  EXPECT_EQ(
      resolved.at("contract.completed"),
      boost::json::parse(R"({"enabled": true, "recipients": ["owner"], "attachSignedPdf": true})"));
  EXPECT_EQ(resolved.at("signer.completed"), platform.at("signer.completed"));
}

TEST(NotificationsTest, ResolutionOrderIsFixedByTheCatalog) {
  auto contract = boost::json::parse(R"({"reminder": {"maxCount": 0}})").as_object();
  auto resolved = ResolveNotifications(PlatformNotificationDefaults(), {}, {}, contract);
  std::vector<std::string> keys;
  for (const auto& member : resolved) keys.emplace_back(member.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"contract.sent", "signer.completed",
                                            "contract.completed", "contract.declined",
                                            "contract.voided", "contract.expired", "reminder"}));
}

TEST(NotificationsTest, MergeReplacesSettingsNotEvents) {
  auto base = boost::json::parse(R"({"reminder": {"maxCount": 1, "intervalDays": 2}})").as_object();
  auto over = boost::json::parse(R"({"reminder": {"maxCount": 4}})").as_object();
  EXPECT_EQ(MergeNotificationSettings(base, over),
            boost::json::parse(R"({"reminder": {"maxCount": 4, "intervalDays": 2}})"));
}

}  // namespace
}  // namespace esign
