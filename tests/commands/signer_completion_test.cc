// The one signing command's evidence, the same members for every channel, and its refusal of a
// signature image before anything is stored or decided.
#include "commands/signer_completion.h"

#include <gtest/gtest.h>

#include "base/sha256.h"
#include "domain/id_generator.h"
#include "eventstore/memory_event_store.h"

namespace esign::commands {
namespace {

SignerCompletion Completion(ExecutionChannel channel) {
  return SignerCompletion{.contract_id = "ctr_1",
                          .participant_id = "prt_1",
                          .session_id = "ses_1",
                          .channel = channel,
                          .signer_name = "Ada Lovelace",
                          .ip_address = "203.0.113.7",
                          .user_agent = "Mozilla/5.0",
                          .authentication_method = "sso",
                          .document_sha256 = std::string(64, 'd')};
}

TEST(SignerCompletionTest, EveryChannelRecordsTheSameEvidence) {
  auto hosted = Completion(ExecutionChannel::kPlatformHosted);
  hosted.signature_text = "A. Lovelace";
  hosted.authenticated_at = "2026-11-28T10:00:00Z";
  const auto evidence = SigningEvidence(hosted, "");
  EXPECT_EQ(evidence.at("signerName"), "Ada Lovelace");
  EXPECT_EQ(evidence.at("signatureText"), "A. Lovelace");
  EXPECT_EQ(evidence.at("channel"), "platform_hosted");
  EXPECT_EQ(evidence.at("ipAddress"), "203.0.113.7");
  EXPECT_EQ(evidence.at("consent"), true);
  EXPECT_EQ(evidence.at("authenticatedAt"), "2026-11-28T10:00:00Z");
  EXPECT_FALSE(evidence.contains("signatureImageSha256"));

  auto integrator = Completion(ExecutionChannel::kIntegratorManaged);
  integrator.reported_by = {{"reportedBy", "cli_1"}};
  const auto reported = SigningEvidence(integrator, "abc");
  EXPECT_EQ(reported.at("signatureText"), "Ada Lovelace");  // the name, when none was typed
  EXPECT_EQ(reported.at("reportedBy"), "cli_1");
  EXPECT_EQ(reported.at("signatureImageSha256"), "abc");
  EXPECT_FALSE(reported.contains("authenticatedAt"));

  // A provider reports no address or user agent of the signer.
  const auto provided = SigningEvidence(Completion(ExecutionChannel::kProviderManaged), "");
  EXPECT_FALSE(provided.contains("ipAddress"));
  EXPECT_EQ(provided.at("channel"), "provider_managed");
}

TEST(SignerCompletionTest, AnImageThatCannotBeDrawnIsRefusedAndNotStored) {
  auto store = eventstore::MemoryEventStore::Create();
  ASSERT_TRUE(store);
  ManualClock clock{0};
  ContractCommandHandler handler(
      **store, [](std::string_view) { return nullptr; },
      [](std::string_view, std::string_view, uint64_t) {}, RandomIdGenerator::Instance(), clock);
  auto broken = Completion(ExecutionChannel::kIntegratorManaged);
  broken.signature_image = std::string("\x89PNG\r\n\x1a\n", 8) + "not an image";
  auto refused = CompleteSignature(handler, (*store)->blobs(), nullptr, broken, {}, {});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kValidationFailed);
  EXPECT_EQ(refused.error().details.at(0).field, "signatureImage");
  auto kept = (*store)->blobs().Contains(Sha256Hex(broken.signature_image));
  ASSERT_TRUE(kept);
  EXPECT_FALSE(*kept);

  auto large = Completion(ExecutionChannel::kIntegratorManaged);
  large.signature_image = std::string(kMaxSignatureImageBytes + 1, 'x');
  EXPECT_EQ(CompleteSignature(handler, (*store)->blobs(), nullptr, large, {}, {})
                .error()
                .details.at(0)
                .issue,
            "at most 256 KiB");
}

}  // namespace
}  // namespace esign::commands
