// Just enough XML for S3 responses (ListObjectsV2, multipart, error bodies):
// find the text of named elements and decode entities; and escape text for
// request bodies. Not a general XML parser: it assumes well-formed input
// whose elements of one name do not nest (true of every S3 response).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace hoglake {

// The raw (still entity-encoded) content of every <tag …>…</tag> in `xml`,
// in document order; an empty element <tag/> gives "". kInvalidData when an
// element is not closed.
Result<std::vector<std::string_view>> XmlElements(std::string_view xml, std::string_view tag);

// The decoded text of the first <tag> element, or nullopt when there is none
// (or it is unclosed or its text is malformed).
std::optional<std::string> XmlFirstText(std::string_view xml, std::string_view tag);

// Decodes the five predefined entities and numeric character references
// (&#65; &#x41;, written out as UTF-8). kInvalidData on anything else.
Result<std::string> XmlDecode(std::string_view text);

// Escapes &, <, >, " and ' for element text or attribute values.
std::string XmlEscape(std::string_view text);

}  // namespace hoglake
