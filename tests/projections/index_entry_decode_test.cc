// DecodeIndexEntry (an event parser straight into the entry) against the JSON-tree decoder it
// replaced, kept here as the reference: the same entry for every entry the encoder writes
// (random contents, escapes, Unicode, absent dates), and the same verdict for odd rows (members
// of the wrong type, repeated members, nesting, not an object, trailing bytes).
#include <gtest/gtest.h>

#include <array>
#include <boost/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "base/json_read.h"
#include "projections/contract_index.h"

namespace esign::projections {
namespace {

Result<IndexEntry> ReferenceDecode(std::string_view bytes) {
  // Entries are decoded for every candidate of a list: parse into a buffer on the stack, which
  // spares the allocation and release of every member (a quarter of a list's instructions).
  std::array<unsigned char, 4096> buffer;
  boost::json::monotonic_resource memory(buffer.data(), buffer.size());
  boost::system::error_code ec;
  boost::json::value parsed = boost::json::parse(bytes, ec, &memory);
  if (ec || !parsed.is_object()) return Fail(ErrorCode::kCorruption, "malformed index entry");
  const boost::json::object& in = parsed.get_object();
  IndexEntry entry;
  const auto id = StringMember(in, "id");
  const auto status_text = StringMember(in, "status");
  const auto status = status_text ? ParseContractStatus(*status_text) : std::nullopt;
  const auto version = UnsignedMember(in, "version");
  const auto roles = UnsignedMember(in, "roles");
  const auto actions = UnsignedMember(in, "actions");
  const boost::json::array* counterparties = ArrayMember(in, "counterparties");
  if (!id || !status || !version || !roles || !actions || counterparties == nullptr) {
    return Fail(ErrorCode::kCorruption, "malformed index entry");
  }
  entry.contract_id = std::string(*id);
  entry.status = *status;
  entry.version = *version;
  entry.roles = static_cast<uint8_t>(*roles);
  entry.actions = static_cast<uint8_t>(*actions);
  entry.created_at = IntegerMember(in, "createdAt");
  entry.updated_at = IntegerMember(in, "updatedAt");
  entry.sent_at = IntegerMember(in, "sentAt");
  entry.completed_at = IntegerMember(in, "completedAt");
  entry.declined_at = IntegerMember(in, "declinedAt");
  entry.voided_at = IntegerMember(in, "voidedAt");
  entry.expired_at = IntegerMember(in, "expiredAt");
  entry.expires_at = IntegerMember(in, "expiresAt");
  entry.controller = StringMemberOrEmpty(in, "controller");
  entry.created_by = StringMemberOrEmpty(in, "createdBy");
  entry.text = StringMemberOrEmpty(in, "text");
  for (const auto& org : *counterparties) {
    if (org.is_string()) entry.counterparties.emplace_back(org.get_string());
  }
  return entry;
}

// Both decoders' answers, as text: the entry's every field, or that it failed.
std::string Answer(const Result<IndexEntry>& entry) {
  if (!entry) return "error " + std::string(ToString(entry.error().code));
  const auto date = [](const std::optional<int64_t>& d) {
    return d ? std::to_string(*d) : std::string("-");
  };
  std::string out =
      entry->contract_id + "|" + std::to_string(entry->version) + "|" +
      std::string(ToString(entry->status)) + "|" + date(entry->created_at) + "|" +
      date(entry->updated_at) + "|" + date(entry->sent_at) + "|" + date(entry->completed_at) + "|" +
      date(entry->declined_at) + "|" + date(entry->voided_at) + "|" + date(entry->expired_at) +
      "|" + date(entry->expires_at) + "|" + entry->controller + "|" + entry->created_by + "|" +
      std::to_string(entry->roles) + "|" + std::to_string(entry->actions) + "|" + entry->text + "|";
  for (const std::string& org : entry->counterparties) out += org + ",";
  return out;
}

void ExpectSameAsReference(std::string_view row) {
  EXPECT_EQ(Answer(DecodeIndexEntry(row)), Answer(ReferenceDecode(row))) << row;
}

TEST(IndexEntryDecodeTest, EveryEncodedEntryDecodesAsTheTreeDecoderDecodedIt) {
  std::mt19937_64 random(17);
  const std::vector<std::string> words = {
      "",    "a",      "org_partner", "Ärger \"im\" Büro",   "tab\there",
      "\\x", "日本語", "line\nbreak", std::string(300, 'z'), "ctr_01JSSKAR00STEFYHF7C3X6YPNZ"};
  const auto word = [&] { return words[random() % words.size()]; };
  const auto date = [&]() -> std::optional<int64_t> {
    switch (random() % 3) {
      case 0:
        return std::nullopt;
      case 1:
        return static_cast<int64_t>(random() % 4'000'000'000'000'000);
      default:
        return -static_cast<int64_t>(random() % 1'000'000);
    }
  };
  const ContractStatus statuses[] = {ContractStatus::kDraft, ContractStatus::kSent,
                                     ContractStatus::kCompleted, ContractStatus::kVoided};
  for (int i = 0; i < 2000; ++i) {
    IndexEntry entry;
    entry.contract_id = "ctr_" + std::to_string(random());
    entry.version = random() % 3 == 0 ? random() : random() % 100;
    entry.status = statuses[random() % 4];
    entry.created_at = date();
    entry.updated_at = date();
    entry.sent_at = date();
    entry.completed_at = date();
    entry.declined_at = date();
    entry.voided_at = date();
    entry.expired_at = date();
    entry.expires_at = date();
    entry.controller = word();
    entry.created_by = word();
    for (uint64_t n = random() % 4; n > 0; --n) entry.counterparties.push_back(word());
    entry.roles = static_cast<uint8_t>(random());
    entry.actions = static_cast<uint8_t>(random());
    entry.text = word() + "\n" + word();
    const std::string row = EncodeIndexEntry(entry);
    ASSERT_TRUE(DecodeIndexEntry(row)) << row;
    ExpectSameAsReference(row);
  }
}

TEST(IndexEntryDecodeTest, OddRowsGetTheTreeDecodersVerdict) {
  const std::string good =
      R"("id":"ctr_1","version":3,"status":"sent","roles":1,"actions":2,"counterparties":["org_b"])";
  const std::vector<std::string> rows = {
      "{" + good + "}",
      "{" + good + ",\"createdAt\":12,\"text\":\"abc\",\"controller\":\"org_a\"}",
      "{" + good + ",\"createdAt\":1.5,\"sentAt\":\"soon\",\"voidedAt\":null}",
      "{" + good + ",\"createdAt\":18446744073709551615}",
      "{" + good + ",\"version\":-1}",
      "{" + good + ",\"roles\":300,\"actions\":true}",
      "{" + good + ",\"id\":7}",
      "{" + good + ",\"id\":\"ctr_2\"}",
      "{" + good + ",\"status\":\"nonsense\"}",
      "{" + good + ",\"counterparties\":\"org_c\"}",
      "{" + good + ",\"counterparties\":[1,[\"x\"],{\"a\":\"y\"},\"org_d\",null]}",
      "{" + good + ",\"text\":{\"id\":\"inner\",\"version\":[9]},\"nested\":[{\"roles\":5}]}",
      "{" + good + ",\"text\":\"" + std::string(5000, 'q') + "\\u00e4\\ud83d\\ude00\"}",
      "{" + good + "} trailing",
      " {" + good + "} \n",
      "[" + good + "]",
      "{" + good,
      "",
      "null",
      R"({"version":3,"status":"sent","roles":1,"actions":2,"counterparties":[]})",
  };
  for (const std::string& row : rows) ExpectSameAsReference(row);
}

}  // namespace
}  // namespace esign::projections
