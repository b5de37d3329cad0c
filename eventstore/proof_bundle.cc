#include "eventstore/proof_bundle.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "base/hex.h"
#include "base/json_read.h"
#include "eventstore/event_record.h"
#include "eventstore/ledger_key.h"
#include "eventstore/merkle.h"
#include "eventstore/tree_head.h"
#include "eventstore/tree_head_timestamp.h"

namespace esign::eventstore {
namespace json = boost::json;

namespace {

// Stream reads go in pages so a long stream is never read in one call.
constexpr size_t kPage = 1024;

// PEM files differ only in trailing line ends when copied around; the key itself must be equal.
std::string_view TrimPem(std::string_view pem) {
  while (!pem.empty() && (pem.back() == '\n' || pem.back() == '\r' || pem.back() == ' ')) {
    pem.remove_suffix(1);
  }
  return pem;
}

constexpr std::string_view kBundleMembers[] = {"format",   "streamId", "publicKeyPem",
                                               "treeHead", "events",   kTreeHeadTimestampMember};
constexpr std::string_view kEventMembers[] = {"position", "version", "record", "leafHash",
                                              "inclusionProof"};

class ReportBuilder {
 public:
  bool Add(std::string name, bool ok, std::string detail) {
    report_.checks.push_back(BundleCheck{std::move(name), ok, std::move(detail)});
    return ok;
  }
  BundleReport Take() { return std::move(report_); }
  // A failed check "<prefix><member>" for each member of `object` the format does not have: what
  // a bundle shows beyond the format is proven by nothing.
  template <size_t N>
  void AddUnknownMembers(const json::object& object, const std::string_view (&known)[N],
                         const std::string& prefix) {
    for (const auto& member : object) {
      if (std::find(std::begin(known), std::end(known), member.key()) == std::end(known)) {
        Add(prefix + std::string(member.key()), false,
            "not part of " + std::string(kProofBundleFormat));
      }
    }
  }

 private:
  BundleReport report_;
};

void CheckEvent(const json::value& value, size_t i, std::string_view stream_id,
                const std::optional<SignedTreeHead>& head, ReportBuilder& report) {
  const std::string name = "events[" + std::to_string(i) + "]";
  if (!value.is_object()) {
    report.Add(name + ".record", false, "not an object");
    return;
  }
  const json::object& event = value.get_object();
  report.AddUnknownMembers(event, kEventMembers, name + ".");
  const std::optional<uint64_t> position = UnsignedMember(event, "position");
  const std::optional<uint64_t> version = UnsignedMember(event, "version");
  const std::optional<std::string_view> record_bytes = StringMember(event, "record");
  const std::optional<std::string_view> leaf_hex = StringMember(event, "leafHash");
  const json::value* proof_value = event.if_contains("inclusionProof");

  // The record: its bytes must be a record of this stream, at the position and version claimed,
  // in stream order; otherwise a proof of some other event could stand in for this one.
  if (!position || !version || !record_bytes) {
    report.Add(name + ".record", false, "position, version or record missing or mistyped");
  } else if (Result<EventRecord> record = ParseRecord(*record_bytes); !record) {
    report.Add(name + ".record", false, "not a canonical record: " + record.error().message);
  } else if (record->position.value() != *position || record->version.value() != *version ||
             record->stream_id != stream_id || *version != i + 1) {
    report.Add(name + ".record", false,
               "the record is not version " + std::to_string(i + 1) + " of stream " +
                   std::string(stream_id) + " at the position given");
  } else {
    // The type names the event in a report (contract.voided, contract.expired, ...).
    report.Add(name + ".record", true,
               record->type + " at position " + std::to_string(*position) + ", version " +
                   std::to_string(*version));
  }

  // The leaf hash, recomputed from the bytes.
  std::optional<Hash> leaf;
  if (leaf_hex) leaf = Sha256FromHex(*leaf_hex);
  if (!record_bytes || !leaf) {
    report.Add(name + ".leafHash", false, "record or leafHash missing or malformed");
    leaf.reset();
  } else if (LeafHash(*record_bytes) != *leaf) {
    report.Add(name + ".leafHash", false,
               "SHA-256(0x00 || record) is " + ToHex(LeafHash(*record_bytes)) + ", not " +
                   std::string(*leaf_hex));
    leaf.reset();
  } else {
    report.Add(name + ".leafHash", true, std::string(*leaf_hex));
  }

  // The inclusion proof, from the recomputed leaf to the head's root.
  std::vector<Hash> proof;
  bool proof_ok = proof_value != nullptr && proof_value->is_array();
  if (proof_ok) {
    for (const json::value& node : proof_value->get_array()) {
      std::optional<Hash> hash;
      if (node.is_string()) {
        hash = Sha256FromHex(std::string_view(node.get_string().data(), node.get_string().size()));
      }
      if (!hash) {
        proof_ok = false;
        break;
      }
      proof.push_back(*hash);
    }
  }
  if (!proof_ok) {
    report.Add(name + ".inclusionProof", false, "missing or not an array of hex hashes");
  } else if (!leaf || !position || !head) {
    report.Add(name + ".inclusionProof", false, "no valid leaf hash, position or tree head");
  } else if (!VerifyInclusion(*leaf, *position, head->size, proof, head->root)) {
    report.Add(name + ".inclusionProof", false,
               "does not lead from the leaf to the root of the tree head of size " +
                   std::to_string(head->size));
  } else {
    report.Add(
        name + ".inclusionProof", true,
        std::to_string(proof.size()) + " hashes to the root of size " + std::to_string(head->size));
  }
}

}  // namespace

bool BundleReport::ok() const { return first_failure() == nullptr; }

const BundleCheck* BundleReport::first_failure() const {
  for (const BundleCheck& check : checks) {
    if (!check.ok) return &check;
  }
  return nullptr;
}

Result<json::object> BuildProofBundle(const EventStore& store, std::string_view stream_id) {
  // Only the const members of the ledger (reads and proofs) are used; EventStore offers the
  // ledger through a non-const accessor alone.
  const Ledger& ledger = const_cast<EventStore&>(store).ledger();  // NOLINT
  std::vector<EventRecord> records;
  for (StreamVersion from(1);;) {
    Result<std::vector<EventRecord>> page = store.ReadStream(stream_id, from, kPage);
    if (!page) return Fail(page.error());
    if (page->empty()) break;
    from = StreamVersion(page->back().version.value() + 1);
    const size_t read = page->size();
    for (EventRecord& record : *page) records.push_back(std::move(record));
    if (read < kPage) break;
  }
  if (records.empty()) {
    return Fail(ErrorCode::kNotFound, "stream " + std::string(stream_id) + " has no events");
  }
  uint64_t last_position = 0;
  for (const EventRecord& record : records) {
    last_position = std::max(last_position, record.position.value());
  }
  Result<std::vector<SignedTreeHead>> heads = ledger.TreeHeads();
  if (!heads) return Fail(heads.error());
  if (heads->empty() || heads->back().size <= last_position) {
    return Fail(ErrorCode::kNotFound,
                "no signed tree head covers position " + std::to_string(last_position) +
                    " (the newest covers " +
                    (heads->empty() ? std::string("nothing") : std::to_string(heads->back().size)) +
                    " events)");
  }
  const SignedTreeHead& head = heads->back();

  json::array events;
  for (const EventRecord& record : records) {
    // The stored bytes, not a re-serialization: the leaf is whatever the disk holds.
    Result<std::string> raw = store.ReadRaw(record.position);
    if (!raw) return Fail(raw.error());
    Result<std::vector<Hash>> proof = ledger.InclusionProof(record.position.value(), head.size);
    if (!proof) return Fail(proof.error());
    json::array proof_hex;
    for (const Hash& hash : *proof) proof_hex.emplace_back(ToHex(hash));
    json::object event;
    event["position"] = record.position.value();
    event["version"] = record.version.value();
    event["record"] = json::string(raw->data(), raw->size());
    event["leafHash"] = ToHex(LeafHash(*raw));
    event["inclusionProof"] = std::move(proof_hex);
    events.emplace_back(std::move(event));
  }
  json::object bundle;
  bundle["format"] = kProofBundleFormat;
  bundle["streamId"] = stream_id;
  bundle["publicKeyPem"] = ledger.PublicKeyPem();
  bundle["treeHead"] = json::parse(SerializeTreeHead(head));
  AddTreeHeadTimestamp(head, bundle);
  bundle["events"] = std::move(events);
  return bundle;
}

Result<BundleReport> VerifyProofBundle(const json::value& value,
                                       std::string_view trusted_public_key_pem,
                                       std::string_view trusted_tsa_ca_pem) {
  if (!value.is_object()) return Fail(ErrorCode::kValidationFailed, "a bundle is a JSON object");
  const json::object& bundle = value.get_object();
  ReportBuilder report;
  report.AddUnknownMembers(bundle, kBundleMembers, "");

  const std::optional<std::string_view> format = StringMember(bundle, "format");
  report.Add("format", format == kProofBundleFormat,
             format ? std::string(*format) : std::string("missing"));
  const std::optional<std::string_view> stream_id = StringMember(bundle, "streamId");
  report.Add("streamId", stream_id.has_value(), stream_id ? std::string(*stream_id) : "missing");

  const std::optional<std::string_view> bundle_key = StringMember(bundle, "publicKeyPem");
  std::string_view key = trusted_public_key_pem;
  if (!bundle_key) {
    report.Add("publicKey", false, "publicKeyPem missing");
  } else if (CanonicalPublicKeyPem(*bundle_key) != std::optional<std::string>(*bundle_key)) {
    report.Add("publicKey", false, "publicKeyPem is not a public key in canonical PEM form");
  } else if (!trusted_public_key_pem.empty() &&
             TrimPem(*bundle_key) != TrimPem(trusted_public_key_pem)) {
    report.Add("publicKey", false,
               "the bundle was signed by key " + PublicKeyFingerprint(*bundle_key) +
                   ", not by the trusted key " + PublicKeyFingerprint(trusted_public_key_pem));
  } else if (trusted_public_key_pem.empty()) {
    key = *bundle_key;
    report.Add(
        "publicKey", true,
        std::string(kOwnKeyDetail) + " (SHA-256 fingerprint " + PublicKeyFingerprint(key) + ")");
  } else {
    report.Add("publicKey", true,
               "the trusted key (SHA-256 fingerprint " + PublicKeyFingerprint(key) + ")");
  }

  std::optional<SignedTreeHead> head;
  const json::value* head_value = bundle.if_contains("treeHead");
  Result<SignedTreeHead> parsed_head = Fail(ErrorCode::kValidationFailed, "treeHead missing");
  if (head_value != nullptr) parsed_head = ParseTreeHead(json::serialize(*head_value));
  if (!parsed_head) {
    report.Add("treeHead.signature", false, parsed_head.error().message);
  } else if (key.empty() || !VerifyTreeHead(*parsed_head, key)) {
    report.Add("treeHead.signature", false,
               "the signature over size, root and timestamp does not verify with the key");
  } else {
    head = *parsed_head;
    report.Add("treeHead.signature", true,
               "size " + std::to_string(head->size) + ", root " + ToHex(head->root));
  }

  if (const json::value* stamp = bundle.if_contains(kTreeHeadTimestampMember)) {
    BundleCheck check = CheckTreeHeadTimestamp(*stamp, head ? &*head : nullptr, trusted_tsa_ca_pem);
    report.Add(std::move(check.name), check.ok, std::move(check.detail));
  }

  const json::value* events = bundle.if_contains("events");
  if (events == nullptr || !events->is_array() || events->get_array().empty()) {
    report.Add("events", false, "missing, not an array or empty");
  } else {
    report.Add("events", true, std::to_string(events->get_array().size()) + " events");
    for (size_t i = 0; i < events->get_array().size(); ++i) {
      CheckEvent(events->get_array()[i], i, stream_id.value_or(""), head, report);
    }
  }
  return report.Take();
}

}  // namespace esign::eventstore
