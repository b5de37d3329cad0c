#include "domain/error.h"

#include <gtest/gtest.h>

namespace esign {
namespace {

TEST(ErrorCodeTest, WireNamesAreUpperSnakeCase) {
  EXPECT_EQ(ToString(ErrorCode::kContractRoleBindingInvalid), "CONTRACT_ROLE_BINDING_INVALID");
  EXPECT_EQ(ToString(ErrorCode::kInvalidNotificationSettings), "INVALID_NOTIFICATION_SETTINGS");
  EXPECT_EQ(ToString(ErrorCode::kContractSignedDocumentNotAvailable),
            "CONTRACT_SIGNED_DOCUMENT_NOT_AVAILABLE");
}

}  // namespace
}  // namespace esign
