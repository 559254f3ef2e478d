#include "sql/function/nested_input.h"

#include <algorithm>
#include <cctype>

#include "sql/function/cast.h"
#include "sql/sql_error.h"

namespace hoglake::sql {
namespace {

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

bool IsNullWord(std::string_view s) {
  if (s.size() != 4) return false;
  for (size_t i = 0; i < 4; ++i) {
    if (std::toupper(static_cast<unsigned char>(s[i])) != "NULL"[i]) return false;
  }
  return true;
}

// One token of a literal: its text and whether any of it was quoted.
struct Token {
  std::string text;
  bool quoted = false;
};

class NestedReader {
 public:
  NestedReader(std::string_view text, const SqlType& type) : text_(text), type_(type) {}

  Result<Value> Read() {
    HOGLAKE_ASSIGN_OR_RETURN(Value v, ReadValue(type_));
    SkipSpace();
    if (pos_ != text_.size()) return Malformed(type_);
    return v;
  }

 private:
  Result<Value> ReadValue(const SqlType& type) {
    switch (type.id) {
      case SqlTypeId::kArray:
        return ReadArray(type);
      case SqlTypeId::kComposite:
        return ReadRecord(type);
      case SqlTypeId::kMap:
        return ReadMap(type);
      default:
        return Internal("not a nested type: ", PgTypeName(type));
    }
  }

  Result<Value> ReadArray(const SqlType& type) {
    SkipSpace();
    if (!Eat('{')) return Malformed(type);
    Value out{type};
    out.is_null = false;
    SkipSpace();
    if (Eat('}')) return out;
    const SqlType& element = type.element();
    while (true) {
      SkipSpace();
      if (Peek() == '{') {
        if (element.id != SqlTypeId::kArray) {
          return SqlError(SqlErrorKind::kFeatureNotSupported,
                          "multidimensional arrays are not supported: \"", text_, "\"");
        }
        HOGLAKE_ASSIGN_OR_RETURN(Value inner, ReadArray(element));
        out.elements.push_back(std::move(inner));
      } else {
        HOGLAKE_ASSIGN_OR_RETURN(Token token, ReadToken(",}", type));
        HOGLAKE_ASSIGN_OR_RETURN(Value v, Element(token, element));
        out.elements.push_back(std::move(v));
      }
      SkipSpace();
      if (Eat(',')) continue;
      if (Eat('}')) return UniformScale(std::move(out));
      return Malformed(type);
    }
  }

  // An unconstrained numeric[] is carried at one scale: the finest of its
  // elements' (each read at the scale its text has).
  static Result<Value> UniformScale(Value array) {
    SqlType& element = array.type.members[0].second;
    if (element.id != SqlTypeId::kNumeric || element.precision >= 0) return array;
    for (const Value& e : array.elements) {
      if (!e.is_null) element.scale = std::max(element.scale, e.type.scale);
    }
    for (Value& e : array.elements) {
      if (!e.is_null && e.type.scale != element.scale) {
        HOGLAKE_ASSIGN_OR_RETURN(e, CastValue(e, SqlType::Numeric(kMaxNumericPrecision, element.scale)));
      }
      e.type = element;
    }
    return array;
  }

  Result<Value> ReadRecord(const SqlType& type) {
    SkipSpace();
    if (!Eat('(')) return Malformed(type);
    Value out{type};
    out.is_null = false;
    for (size_t f = 0; f < type.members.size(); ++f) {
      // record_in keeps white space: it is part of the field.
      HOGLAKE_ASSIGN_OR_RETURN(Token token, ReadToken(",)", type, /*trim=*/false));
      const SqlType& member = type.members[f].second;
      if (token.text.empty() && !token.quoted) {
        out.elements.push_back(Value::Null(member));
      } else {
        HOGLAKE_ASSIGN_OR_RETURN(Value v, FromText(token.text, member));
        out.elements.push_back(std::move(v));
      }
      if (!Eat(f + 1 == type.members.size() ? ')' : ',')) return Malformed(type);
    }
    return out;
  }

  Result<Value> ReadMap(const SqlType& type) {
    SkipSpace();
    if (!Eat('{')) return Malformed(type);
    Value out{type};
    out.is_null = false;
    SkipSpace();
    if (Eat('}')) return out;
    while (true) {
      HOGLAKE_ASSIGN_OR_RETURN(Token key, ReadToken("=", type));
      if (!key.quoted && IsNullWord(key.text)) {
        return SqlError(SqlErrorKind::kNullValueNotAllowed, "map key cannot be null");
      }
      if (!Eat('=')) return Malformed(type);
      HOGLAKE_ASSIGN_OR_RETURN(Value k, FromText(key.text, type.members[0].second));
      HOGLAKE_ASSIGN_OR_RETURN(Token value, ReadToken(",}", type));
      HOGLAKE_ASSIGN_OR_RETURN(Value v, Element(value, type.members[1].second));
      out.elements.push_back(std::move(k));
      out.elements.push_back(std::move(v));
      SkipSpace();
      if (Eat(',')) continue;
      if (Eat('}')) return out;
      return Malformed(type);
    }
  }

  // An array element or map value: a bare NULL is NULL.
  Result<Value> Element(const Token& token, const SqlType& type) {
    if (!token.quoted && IsNullWord(token.text)) return Value::Null(type);
    return FromText(token.text, type);
  }

  Result<Value> FromText(const std::string& text, const SqlType& type) {
    if (type.is_nested()) return NestedReader(text, type).Read();
    HOGLAKE_ASSIGN_OR_RETURN(Value v, CastValue(Value::Text(text, SqlTypeId::kUnknown), type));
    // An unconstrained numeric keeps the scale its text gave it.
    if (type.id != SqlTypeId::kNumeric || type.precision >= 0) v.type = type;
    return v;
  }

  // Reads up to (not past) an unquoted character of `stops`. Quoted parts
  // take '\' escapes and, in records, '""' for a quote; bare parts take '\'
  // escapes. With `trim`, white space around bare text is dropped.
  Result<Token> ReadToken(std::string_view stops, const SqlType& type, bool trim = true) {
    Token token;
    if (trim) SkipSpace();
    size_t kept = 0;  // length of token.text that trailing-space trimming keeps
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '"') {
        // In arrays and maps a quoted element is the whole element.
        if (type.id != SqlTypeId::kComposite && (token.quoted || !token.text.empty())) {
          return Malformed(type);
        }
        ++pos_;
        token.quoted = true;
        while (true) {
          if (pos_ >= text_.size()) return Malformed(type);
          char q = text_[pos_++];
          if (q == '\\') {
            if (pos_ >= text_.size()) return Malformed(type);
            token.text += text_[pos_++];
          } else if (q == '"') {
            if (type.id == SqlTypeId::kComposite && Peek() == '"') {
              token.text += '"';
              ++pos_;
              continue;
            }
            break;
          } else {
            token.text += q;
          }
        }
        kept = token.text.size();
        if (type.id != SqlTypeId::kComposite) {
          SkipSpace();
          if (pos_ < text_.size() && stops.find(text_[pos_]) == std::string_view::npos) {
            return Malformed(type);
          }
        }
        continue;
      }
      if (stops.find(c) != std::string_view::npos) break;
      if (type.id != SqlTypeId::kComposite && (c == '{' || c == '}')) return Malformed(type);
      if (c == '\\') {
        ++pos_;
        if (pos_ >= text_.size()) return Malformed(type);
        token.text += text_[pos_++];
        kept = token.text.size();
        continue;
      }
      token.text += c;
      ++pos_;
      if (!trim || !IsSpace(c)) kept = token.text.size();
    }
    if (pos_ >= text_.size()) return Malformed(type);
    token.text.resize(kept);
    if (trim && token.text.empty() && !token.quoted) return Malformed(type);
    return token;
  }

  void SkipSpace() {
    while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
  }
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool Eat(char c) {
    if (Peek() != c || pos_ >= text_.size()) return false;
    ++pos_;
    return true;
  }

  Error Malformed(const SqlType& type) const {
    const char* what = type.id == SqlTypeId::kComposite ? "record"
                       : type.id == SqlTypeId::kMap     ? "map"
                                                        : "array";
    return SqlError(SqlErrorKind::kInvalidTextRepresentation, "malformed ", what, " literal: \"",
                    text_, "\"");
  }

  std::string_view text_;
  const SqlType& type_;
  size_t pos_ = 0;
};

}  // namespace

Result<Value> ParseNestedText(std::string_view text, const SqlType& type) {
  return NestedReader(text, type).Read();
}

}  // namespace hoglake::sql
