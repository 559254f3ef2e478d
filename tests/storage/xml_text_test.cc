#include "storage/xml_text.h"

#include <gtest/gtest.h>

namespace hoglake {
namespace {

TEST(XmlTextTest, FindsElementsByExactName) {
  const std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult><KeyCount>2</KeyCount>"
      "<Contents><Key>a</Key><Size>1</Size></Contents>"
      "<Contents><Key>b&amp;c</Key><Size>22</Size></Contents><Key/>"
      "<Key attr=\"x\">d</Key></ListBucketResult>";
  auto keys = XmlElements(xml, "Key");
  ASSERT_TRUE(keys.ok());
  ASSERT_EQ(keys->size(), 4u);
  EXPECT_EQ((*keys)[0], "a");
  EXPECT_EQ((*keys)[1], "b&amp;c");
  EXPECT_EQ((*keys)[2], "");
  EXPECT_EQ((*keys)[3], "d");
  auto contents = XmlElements(xml, "Contents");
  ASSERT_TRUE(contents.ok());
  EXPECT_EQ(contents->size(), 2u);
  EXPECT_EQ(XmlFirstText(xml, "KeyCount"), "2");
  EXPECT_EQ(XmlFirstText(xml, "Missing"), std::nullopt);
  EXPECT_FALSE(XmlElements("<Key>unclosed", "Key").ok());
}

TEST(XmlTextTest, DecodesEntitiesAndCharacterReferences) {
  EXPECT_EQ(*XmlDecode("a&lt;b&gt;c&amp;d&quot;e&apos;f"), "a<b>c&d\"e'f");
  EXPECT_EQ(*XmlDecode("&#65;&#x42;&#x00e9;&#x1F600;"), "AB\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(*XmlDecode("&amp;amp;"), "&amp;");
  EXPECT_FALSE(XmlDecode("&nbsp;").ok());
  EXPECT_FALSE(XmlDecode("a & b").ok());
  EXPECT_FALSE(XmlDecode("&#xD800;").ok());
  EXPECT_FALSE(XmlDecode("&#0;").ok());
}

TEST(XmlTextTest, EscapeRoundTrips) {
  const std::string text = "k<e>y&\"'/\xc3\xa9";
  EXPECT_EQ(XmlEscape(text), "k&lt;e&gt;y&amp;&quot;&apos;/\xc3\xa9");
  EXPECT_EQ(*XmlDecode(XmlEscape(text)), text);
}

}  // namespace
}  // namespace hoglake
