// StatementSplitter: statements end at top-level semicolons only, whatever
// the pieces the text arrives in.
#include "sql/parser/statement_splitter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hoglake::sql {
namespace {

using Statements = std::vector<std::string>;

// Splits `text` fed in pieces of `piece` bytes (0: whole), the unterminated
// rest last.
Statements Split(std::string_view text, size_t piece = 0) {
  StatementSplitter splitter;
  Statements out;
  if (piece == 0) piece = text.size() + 1;
  for (size_t at = 0; at < text.size(); at += piece) {
    for (std::string& s : splitter.Feed(text.substr(at, piece))) out.push_back(std::move(s));
  }
  if (auto rest = splitter.Finish()) out.push_back(*rest);
  return out;
}

TEST(StatementSplitterTest, SplitsAtSemicolonsAndTrims) {
  EXPECT_EQ(Split("SELECT 1; SELECT 2;\n"), (Statements{"SELECT 1", "SELECT 2"}));
  EXPECT_EQ(Split("  SELECT 1 ;\n\nSELECT\n  2"), (Statements{"SELECT 1", "SELECT\n  2"}));
  EXPECT_EQ(Split(";; ;\n"), Statements{});
  EXPECT_EQ(Split(""), Statements{});
}

TEST(StatementSplitterTest, QuotedSemicolonsDoNotSplit) {
  EXPECT_EQ(Split("SELECT 'a;b', 'it''s;'; SELECT 2"),
            (Statements{"SELECT 'a;b', 'it''s;'", "SELECT 2"}));
  EXPECT_EQ(Split("SELECT \"odd;name\" FROM t; SELECT 2"),
            (Statements{"SELECT \"odd;name\" FROM t", "SELECT 2"}));
  EXPECT_EQ(Split("SELECT E'x\\';y'; SELECT 2"), (Statements{"SELECT E'x\\';y'", "SELECT 2"}));
  // Without E the backslash is an ordinary character: 'x\' is the string.
  EXPECT_EQ(Split("SELECT 'x\\'; SELECT 2"), (Statements{"SELECT 'x\\'", "SELECT 2"}));
  // "TYPE'…'": the E ends a word, so no escapes.
  EXPECT_EQ(Split("SELECT date'2024-01-01\\'; SELECT 2"),
            (Statements{"SELECT date'2024-01-01\\'", "SELECT 2"}));
}

TEST(StatementSplitterTest, DollarQuotes) {
  EXPECT_EQ(Split("SELECT $$a;b$$; SELECT $x$ $$; $x$;"),
            (Statements{"SELECT $$a;b$$", "SELECT $x$ $$; $x$"}));
  // $1 is a parameter and a$b an identifier, not the start of a quote.
  EXPECT_EQ(Split("SELECT $1; SELECT a$b; SELECT 3"),
            (Statements{"SELECT $1", "SELECT a$b", "SELECT 3"}));
}

TEST(StatementSplitterTest, CommentsDoNotSplitAndAloneAreDropped) {
  EXPECT_EQ(Split("SELECT 1 -- not here;\n + 1; SELECT 2"),
            (Statements{"SELECT 1 -- not here;\n + 1", "SELECT 2"}));
  EXPECT_EQ(Split("SELECT /* a; /* nested; */ still; */ 1;"),
            (Statements{"SELECT /* a; /* nested; */ still; */ 1"}));
  EXPECT_EQ(Split("-- only a note;\n/* and; this */\n"), Statements{});
  EXPECT_EQ(Split("SELECT 1; -- trailing\n"), Statements{"SELECT 1"});
  EXPECT_EQ(Split("SELECT 5 - 3 / 1;"), Statements{"SELECT 5 - 3 / 1"});
}

TEST(StatementSplitterTest, AnyPieceSizeGivesTheSameStatements) {
  const std::string script =
      "SELECT 'a;''b' AS x; -- c;\nSELECT $t$ ; $$ $t$ /* ; /* ; */ */;\n"
      "SELECT E'\\\\'';' , \"q;\"\"\" FROM t; SELECT 1 - -2 / 3";
  const Statements whole = Split(script);
  ASSERT_EQ(whole.size(), 4u);
  for (size_t piece = 1; piece <= 7; ++piece) EXPECT_EQ(Split(script, piece), whole) << piece;
}

TEST(StatementSplitterTest, PendingTellsAStatementIsUnderWay) {
  StatementSplitter splitter;
  EXPECT_FALSE(splitter.Pending());
  EXPECT_TRUE(splitter.Feed("SELECT 1\n").empty());
  EXPECT_TRUE(splitter.Pending());
  EXPECT_EQ(splitter.Feed("  ;\n"), Statements{"SELECT 1"});
  EXPECT_FALSE(splitter.Pending());
  splitter.Feed("-- a note\n");
  EXPECT_FALSE(splitter.Pending());
  splitter.Feed("SELECT 'open;\n");
  EXPECT_TRUE(splitter.Pending());
  splitter.Clear();
  EXPECT_FALSE(splitter.Pending());
  EXPECT_EQ(splitter.Feed("SELECT 2;\n"), Statements{"SELECT 2"});
  EXPECT_EQ(splitter.Finish(), std::nullopt);
}

}  // namespace
}  // namespace hoglake::sql
