// Test support: an event store, a view store, the template catalog, contract views and the text
// index under one running projector, and a ContractScript to make history with. After each scripted
// command, Sync() waits for the views as a command handler would (read-your-writes).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "contract_script.h"
#include "eventstore/memory_event_store.h"
#include "projections/contract_queries.h"
#include "projections/contract_text_index.h"
#include "projections/contract_views.h"
#include "projections/memory_view_store.h"
#include "projections/projector.h"
#include "projections/template_catalog.h"

namespace esign::projections::testing {

inline constexpr char kCursorKey[] = "test-cursor-key-0123456789abcdef0123456789";

class ContractWorld {
 public:
  explicit ContractWorld(ContractViewsOptions options = {})
      : store_(Create()),
        contracts_(*store_, options),
        text_index_(*store_),
        projector_(*store_, views_, {&catalog_, &contracts_, &text_index_}),
        queries_(views_, kCursorKey),
        script_(*store_) {
    EXPECT_TRUE(projector_.Start());
    script_.ImportTemplate("services-agreement.json");
  }
  ~ContractWorld() {
    projector_.Stop();
    store_->Close();
  }

  void Sync() {
    ASSERT_TRUE(projector_.WaitFor(store_->Size(), std::chrono::milliseconds(5000)))
        << (projector_.health() ? "timeout" : projector_.health().error().message);
  }

  eventstore::MemoryEventStore& store() { return *store_; }
  MemoryViewStore& views() { return views_; }
  ContractQueries& queries() { return queries_; }
  ContractScript& script() { return script_; }
  Projector& projector() { return projector_; }

 private:
  static std::unique_ptr<eventstore::MemoryEventStore> Create() {
    auto store = eventstore::MemoryEventStore::Create();
    EXPECT_TRUE(store);
    return std::move(*store);
  }

  std::unique_ptr<eventstore::MemoryEventStore> store_;
  MemoryViewStore views_;
  TemplateCatalog catalog_;
  ContractViews contracts_;
  ContractTextIndex text_index_;
  Projector projector_;
  ContractQueries queries_;
  ContractScript script_;
};

}  // namespace esign::projections::testing
