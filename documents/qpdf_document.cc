#include "documents/qpdf_document.h"

#include <qpdf/Buffer.hh>
#include <qpdf/QPDFWriter.hh>

namespace esign::documents {

std::unique_ptr<QPDF> ReadPdf(std::string_view bytes, const std::string& description) {
  auto pdf = std::make_unique<QPDF>();
  pdf->setSuppressWarnings(true);
  pdf->processMemoryFile(description.c_str(), bytes.data(), bytes.size());
  return pdf;
}

std::string WritePdf(QPDF& pdf) {
  QPDFWriter writer(pdf);
  writer.setOutputMemory();
  writer.setDeterministicID(true);
  writer.setObjectStreamMode(qpdf_o_disable);
  writer.setDecodeLevel(qpdf_dl_none);
  writer.setCompressStreams(false);
  writer.setMinimumPDFVersion("1.7");
  writer.write();
  const std::shared_ptr<Buffer> buffer = writer.getBufferSharedPointer();
  return std::string(reinterpret_cast<const char*>(buffer->getBuffer()), buffer->getSize());
}

}  // namespace esign::documents
