// ContractDocuments over an in-memory store with an ephemeral service certificate, a manual
// clock and a look-up that knows one template (services-agreement.json).
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "documents/contract_documents.h"
#include "eventstore/memory_event_store.h"
#include "tests/documents/pdf_fixtures.h"

namespace esign::documents {

class ContractDocumentsFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = eventstore::MemoryEventStore::Create();
    ASSERT_TRUE(store);
    store_ = std::move(*store);
    auto cert = ServiceCertificate::CreateEphemeral();
    ASSERT_TRUE(cert);
    cert_ = std::move(*cert);
    documents_ = std::make_unique<ContractDocuments>(
        [this](std::string_view id) -> std::shared_ptr<const Template> {
          return id == tmpl_->template_id ? tmpl_ : nullptr;
        },
        *store_, *cert_, clock_);
  }

  std::shared_ptr<const Template> tmpl_ =
      std::make_shared<const Template>(pdf_test::LoadTemplate("services-agreement.json"));
  ManualClock clock_{1'800'000'000'000'000};
  std::unique_ptr<eventstore::MemoryEventStore> store_;
  std::unique_ptr<ServiceCertificate> cert_;
  std::unique_ptr<ContractDocuments> documents_;
};

}  // namespace esign::documents
