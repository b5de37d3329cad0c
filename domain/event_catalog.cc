#include "domain/event_catalog.h"

#include "domain/event_codec.h"
#include "domain/event_data.h"

namespace esign {
namespace {

// The envelope of a Kafka message (webhooks/event_message.cc writes it).
struct EventActorRecord {
  std::string client_id;
  std::string organization_id;
};
BOOST_DESCRIBE_STRUCT(EventActorRecord, (), (client_id, organization_id))

struct EventEnvelopeRecord {
  int64_t schema_version = 1;
  std::string event_id;
  std::string type;
  int64_t position = 0;
  std::string stream_id;
  int64_t stream_version = 0;
  std::optional<std::string> contract_id;
  std::optional<std::string> contract_organization_id;
  std::string time;
  EventActorRecord actor;
  int64_t data_schema_version = 1;
  boost::json::object data;
};
BOOST_DESCRIBE_STRUCT(EventEnvelopeRecord, (),
                      (schema_version, event_id, type, position, stream_id, stream_version,
                       contract_id, contract_organization_id, time, actor, data_schema_version,
                       data))

boost::json::object DefinitionRef(std::string_view type) {
  return {{"$ref", "#/$defs/" + std::string(type)}};
}

boost::json::object BuildSchemas() {
  boost::json::object defs;
  boost::json::array by_type;
  boost::mp11::mp_for_each<boost::mp11::mp_transform<boost::mp11::mp_identity, AllEventData>>(
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        boost::json::object schema = event_codec::Schema<T>();
        schema["title"] = T::kType;
        schema["description"] = T::kDescription;
        defs[T::kType] = std::move(schema);
        // The envelope's data follows its type's definition.
        by_type.push_back(boost::json::object{
            {"if", {{"properties", {{"type", {{"const", T::kType}}}}}, {"required", {"type"}}}},
            {"then", {{"properties", {{"data", DefinitionRef(T::kType)}}}}}});
      });
  boost::json::object envelope = event_codec::Schema<EventEnvelopeRecord>();
  envelope["title"] = "Kafka message";
  envelope["description"] =
      "A message of the contract-events topic: the event with where it stands in the log. Its "
      "data follows the definition named by its type; a type without a definition is not one "
      "this version of the service writes.";
  boost::json::array types;
  for (const auto& [type, schema] : defs) types.emplace_back(type);
  envelope.at("properties").as_object()["type"] = boost::json::object{{"enum", std::move(types)}};
  envelope["allOf"] = std::move(by_type);
  defs["envelope"] = std::move(envelope);
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"$id", kEventSchemasId},
          {"title", "Events of the contract signing service"},
          {"description",
           "The data of each event type, as the log holds it (GET /api/v1/ledger/...) and as "
           "webhooks and Kafka carry it, and the envelope of the Kafka messages. Members may be "
           "added in later versions; readers ignore members they do not know."},
          {"$defs", std::move(defs)}};
}

}  // namespace

const boost::json::object& EventSchemas() {
  static const boost::json::object schemas = BuildSchemas();
  return schemas;
}

const std::string& EventSchemasText() {
  static const std::string text = boost::json::serialize(EventSchemas());
  return text;
}

bool HasEventSchema(std::string_view type) {
  return type != "envelope" && EventSchemas().at("$defs").as_object().contains(type);
}

}  // namespace esign
