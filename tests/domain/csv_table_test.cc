#include "domain/csv_table.h"

#include <gtest/gtest.h>

namespace esign {
namespace {

std::string Issue(const Result<CsvTable>& table) {
  return table ? "" : table.error().details.front().issue;
}

TEST(CsvTableTest, ReadsRfc4180QuotingAndLineEndings) {
  auto table = ParseCsv(
      "name,note\r\n\"Lovelace, Ada\",\"said \"\"hi\"\"\r\non two lines\"\r\nGrace,\r\n,x\n");
  ASSERT_TRUE(table) << table.error().details.front().issue;
  EXPECT_EQ(table->header, (std::vector<std::string>{"name", "note"}));
  ASSERT_EQ(table->records.size(), 3u);
  EXPECT_EQ(table->records[0],
            (std::vector<std::string>{"Lovelace, Ada", "said \"hi\"\r\non two lines"}));
  EXPECT_EQ(table->records[1], (std::vector<std::string>{"Grace", ""}));
  EXPECT_EQ(table->records[2], (std::vector<std::string>{"", "x"}));
}

TEST(CsvTableTest, DropsTheByteOrderMarkAndBlankLinesAndTakesALastLineWithoutBreak) {
  auto table = ParseCsv("\xEF\xBB\xBFk\n\nv1\n\r\nv2");
  ASSERT_TRUE(table);
  EXPECT_EQ(table->header, (std::vector<std::string>{"k"}));
  EXPECT_EQ(table->records.size(), 2u);
  EXPECT_EQ(table->records[1], (std::vector<std::string>{"v2"}));
  // A quoted empty cell is a record, not a blank line.
  auto quoted = ParseCsv("k\n\"\"\n");
  ASSERT_TRUE(quoted);
  EXPECT_EQ(quoted->records.size(), 1u);
}

TEST(CsvTableTest, RefusesWhatIsNotCsvNamingTheLine) {
  EXPECT_EQ(Issue(ParseCsv("a,b\n1,2,3\n")), "line 2: 3 cells where the header has 2");
  EXPECT_EQ(Issue(ParseCsv("a,b\n\"open,2\n")), "line 2: a quoted cell is not closed");
  EXPECT_EQ(Issue(ParseCsv("a\n\"x\"y\n")),
            "line 2: a quoted cell is followed by something else than , or a line break");
  EXPECT_EQ(Issue(ParseCsv("a\nx\"y\n")),
            "line 2: a quote inside a cell that does not start with one");
  EXPECT_EQ(Issue(ParseCsv("a,a\n1,2\n")), "line 1: column a repeats");
  EXPECT_EQ(Issue(ParseCsv("a,\n1,2\n")), "line 1: a header cell is empty");
  EXPECT_EQ(Issue(ParseCsv("a\r1\n")), "line 1: a carriage return without its line feed");
  EXPECT_EQ(Issue(ParseCsv("a\n")), "line 2: there is no record after the header");
  EXPECT_EQ(Issue(ParseCsv("")), "line 1: there is no header");
  EXPECT_EQ(Issue(ParseCsv("a\n\xC3\x28\n")), "line 1: the text is not UTF-8");
  EXPECT_EQ(Issue(ParseCsv("a\n\xED\xA0\x80\n")), "line 1: the text is not UTF-8");  // surrogate
  EXPECT_EQ(Issue(ParseCsv("a\n\xE2\x82")), "line 1: the text is not UTF-8");        // cut short
  EXPECT_TRUE(ParseCsv("a\n\xE2\x82\xAC \xF0\x9F\x98\x80\n"));                       // € 😀
}

TEST(CsvTableTest, KeepsToItsLimits) {
  CsvLimits limits{.max_records = 2, .max_columns = 3, .max_cell_bytes = 8};
  EXPECT_TRUE(ParseCsv("a\n1\n2\n", limits));
  EXPECT_EQ(Issue(ParseCsv("a\n1\n2\n3\n", limits)), "line 4: more than 2 records");
  EXPECT_EQ(Issue(ParseCsv("a,b,c,d\n1,2,3,4\n", limits)), "line 1: more than 3 columns");
  EXPECT_EQ(Issue(ParseCsv("a\n123456789\n", limits)), "line 2: a cell is too long");
  EXPECT_EQ(Issue(ParseCsv("a\n\"123456789\"\n", limits)), "line 2: a cell is too long");
}

}  // namespace
}  // namespace esign
