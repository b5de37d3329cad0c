#include "tests/support/build_paths.h"

// Each ESIGN_PATH_* is defined for this file alone by tests/support/CMakeLists.txt.
namespace esign::testing::build_paths {

const char* SourceDir() { return ESIGN_PATH_SOURCE_DIR; }
const char* ExampleTemplatesDir() { return ESIGN_PATH_SOURCE_DIR "/examples/templates"; }
const char* DomainTestDataDir() { return ESIGN_PATH_SOURCE_DIR "/tests/domain"; }
const char* DocumentFixturesDir() { return ESIGN_PATH_SOURCE_DIR "/tests/fixtures/documents"; }
const char* SmtpServerScript() { return ESIGN_PATH_SOURCE_DIR "/tests/mail/smtp_server.mjs"; }
const char* TsaServerScript() { return ESIGN_PATH_SOURCE_DIR "/tests/support/tsa_server.mjs"; }
const char* ContractdBinary() { return ESIGN_PATH_CONTRACTD; }
const char* LedgerBinary() { return ESIGN_PATH_LEDGER; }
const char* KafkaMockClusterBinary() { return ESIGN_PATH_KAFKA_MOCK_CLUSTER; }
const char* CrashWriterBinary() { return ESIGN_PATH_CRASH_WRITER; }
const char* NodeExecutable() { return ESIGN_PATH_NODE; }
const char* OpenSslExecutable() { return ESIGN_PATH_OPENSSL; }

}  // namespace esign::testing::build_paths
