// Where the tests find the checkout, the programs the build made and the tools they run.
//
// tests/CMakeLists.txt includes this header in every test source (-include), and the paths
// themselves are compiled into build_paths.cc alone: a clone at another path then differs from
// the last only in that one small file, so the compiler cache serves every test source again
// (a path compiled into each test would make each of them a cache miss).
#pragma once

namespace esign::testing::build_paths {

const char* SourceDir();               // the checkout
const char* ExampleTemplatesDir();     // <checkout>/examples/templates
const char* DomainTestDataDir();       // <checkout>/tests/domain
const char* DocumentFixturesDir();     // <checkout>/tests/fixtures/documents
const char* SmtpServerScript();        // <checkout>/tests/mail/smtp_server.mjs
const char* TsaServerScript();         // <checkout>/tests/support/tsa_server.mjs
const char* ContractdBinary();         // the built contractd
const char* LedgerBinary();            // the built contract-ledger
const char* KafkaMockClusterBinary();  // the built kafka-mock-cluster
const char* CrashWriterBinary();       // the built eventstore_crash_writer
const char* NodeExecutable();          // Node.js, as CMake found it
const char* OpenSslExecutable();       // openssl, as CMake found it

}  // namespace esign::testing::build_paths

// The names the tests have always used.
#define SOURCE_DIR (::esign::testing::build_paths::SourceDir())
#define ESIGN_EXAMPLE_TEMPLATES_DIR (::esign::testing::build_paths::ExampleTemplatesDir())
#define ESIGN_DOMAIN_TEST_DATA_DIR (::esign::testing::build_paths::DomainTestDataDir())
#define ESIGN_DOCUMENT_FIXTURES_DIR (::esign::testing::build_paths::DocumentFixturesDir())
#define SMTP_SERVER_SCRIPT (::esign::testing::build_paths::SmtpServerScript())
#define TSA_SERVER_SCRIPT (::esign::testing::build_paths::TsaServerScript())
#define CONTRACTD_BINARY (::esign::testing::build_paths::ContractdBinary())
#define LEDGER_BINARY (::esign::testing::build_paths::LedgerBinary())
#define KAFKA_MOCK_CLUSTER_BINARY (::esign::testing::build_paths::KafkaMockClusterBinary())
#define ESIGN_CRASH_WRITER (::esign::testing::build_paths::CrashWriterBinary())
#define NODE_EXECUTABLE (::esign::testing::build_paths::NodeExecutable())
#define OPENSSL_EXECUTABLE (::esign::testing::build_paths::OpenSslExecutable())
