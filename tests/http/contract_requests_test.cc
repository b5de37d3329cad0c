#include "http/contract_requests.h"

#include <gtest/gtest.h>

namespace esign::http {
namespace {

boost::json::object Body(std::string_view json) { return boost::json::parse(json).as_object(); }

TEST(ContractRequestsTest, KnownMembersFillTheirSlotsAndTheRestIsUnknown) {
  const auto send = CommandFromRequest<SendContract>(
      Body(R"({"roleBindings":[],"notifications":{"x":1},"organizationSigningMode":"manual"})"));
  EXPECT_TRUE(send.role_bindings.is_array());
  EXPECT_EQ(send.notifications, Body(R"({"x":1})"));
  EXPECT_TRUE(send.signing_settings.is_null());  // absent: null
  ASSERT_EQ(send.unknown.size(), 1u);
  EXPECT_EQ(send.unknown.at("organizationSigningMode"), "manual");
}

TEST(ContractRequestsTest, MembersKeepTheirJsonForDecideToCheck) {
  // A wrong type is not refused here: Decide names it by its request path, in rule order.
  const auto data = CommandFromRequest<UpdateData>(Body(R"({"fieldValues":"nope"})"));
  EXPECT_EQ(data.field_values, "nope");
  EXPECT_TRUE(data.table_data.is_null());
  EXPECT_TRUE(data.unknown.empty());
}

TEST(ContractRequestsTest, CreateTakesEveryMemberOfTheSpecification) {
  const auto create = CommandFromRequest<CreateContract>(Body(
      R"({"title":"T","templateId":"tpl_1","templateVersionId":"v1","data":{},"fieldValues":[],
          "tableData":[],"participants":[],"roleBindings":[],"signingSettings":{},
          "sendNow":true,"notifications":{}})"));
  EXPECT_EQ(create.title, "T");
  EXPECT_EQ(create.template_version_id, "v1");
  EXPECT_EQ(create.send_now, true);
  EXPECT_TRUE(create.unknown.empty());
}

}  // namespace
}  // namespace esign::http
