// The records nested in events (domain/event_data.h), described with Boost.Describe for
// domain/event_codec.h. Apart from event_data.h so that the domain types they mirror
// (participant.h, role_binding.h) can convert to and from them without the whole catalog.
#pragma once

#include <boost/describe.hpp>
#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "domain/template.h"

namespace esign {

// ---- records inside events --------------------------------------------------------------------

// A value of the contract's data (contract.created, contract.data_updated).
struct DataValueRecord {
  std::string key;
  boost::json::value value;
};
BOOST_DESCRIBE_STRUCT(DataValueRecord, (), (key, value))

// A value a signer entered (signer.completed); an attachment's value is {sha256, name,
// mediaType, size}.
struct SignerValueRecord {
  std::string field_id;
  boost::json::value value;
};
BOOST_DESCRIBE_STRUCT(SignerValueRecord, (), (field_id, value))

// A participant as events hold it (participant.h reads and writes it).
struct ParticipantRecord {
  std::string participant_id;
  std::string action;
  std::string recipient_type;
  std::string name;
  std::optional<std::string> email;
  std::optional<std::string> organization_id;
  std::optional<std::string> execution_channel;
  std::optional<int64_t> routing_order;
  std::optional<std::string> provider_config_ref;
  std::optional<std::string> authentication;
  std::optional<std::string> access_code_hash;
};
BOOST_DESCRIBE_STRUCT(ParticipantRecord, (),
                      (participant_id, action, recipient_type, name, email, organization_id,
                       execution_channel, routing_order, provider_config_ref, authentication,
                       access_code_hash))

struct RoleBindingRecord {
  std::string template_role_id;
  std::string participant_id;
};
BOOST_DESCRIBE_STRUCT(RoleBindingRecord, (), (template_role_id, participant_id))

struct RoutingRecord {
  std::string participant_id;
  int64_t routing_order = 1;
};
BOOST_DESCRIBE_STRUCT(RoutingRecord, (), (participant_id, routing_order))

// A template's signature box, as contract.prepared records it.
BOOST_DESCRIBE_STRUCT(SignaturePlacement, (), (page, x, y, width, height))

// A role of the template as contract.prepared resolved it.
struct PreparedRoleRecord {
  std::string template_role_id;
  std::string participant_id;
  std::string action;
  std::string recipient_type;
  int64_t routing_order = 1;
  std::vector<SignaturePlacement> signature_placement;
};
BOOST_DESCRIBE_STRUCT(PreparedRoleRecord, (),
                      (template_role_id, participant_id, action, recipient_type, routing_order,
                       signature_placement))

}  // namespace esign
