// Serializes templates back to JSON, in the shape of a template file, with a fixed key order so
// equal templates give equal bytes (events and API responses). ImportTemplate(TemplateToJson(t))
// yields t again. Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>

#include "domain/template.h"

namespace esign {

boost::json::object TemplateToJson(const Template& tmpl);
boost::json::object TemplateVersionToJson(const TemplateVersion& version);
boost::json::object FieldDefToJson(const FieldDef& field);
boost::json::object RoleDefToJson(const RoleDef& role);
boost::json::object PlacementToJson(const SignaturePlacement& placement);

// A number as JSON: integral values as integers ("72", not "7.2E1"), others as doubles.
boost::json::value NumberToJson(double value);

}  // namespace esign
