// Renders apache-arrow tables in hoglake's JSON forms, independently of
// hoglake's own code, so the interop tests can compare the two byte for byte:
//   rowsAsJsonLines(table)  ≡ `hoglake arrow cat`       (src/columnar/json_rows.h)
//   schemaAsJson(schema)    ≡ `hoglake arrow schema --json` (src/columnar/schema_json.h)
// It reads apache-arrow's decoded Data (buffers, offsets, children) directly,
// so every value shown is what apache-arrow decoded.
import { Type, TimeUnit, Precision, DateUnit } from 'apache-arrow';

const UNIT_NAMES = { [TimeUnit.SECOND]: 's', [TimeUnit.MILLISECOND]: 'ms', [TimeUnit.MICROSECOND]: 'us', [TimeUnit.NANOSECOND]: 'ns' };
const TICKS = { [TimeUnit.SECOND]: 1n, [TimeUnit.MILLISECOND]: 1000n, [TimeUnit.MICROSECOND]: 1000000n, [TimeUnit.NANOSECOND]: 1000000000n };
const utf8 = new TextDecoder('utf-8');

// ---- schema --------------------------------------------------------------

export function typeName(type) {
  switch (type.typeId) {
    case Type.Bool: return 'bool';
    case Type.Int: return `${type.isSigned ? '' : 'u'}int${type.bitWidth}`;
    case Type.Float: return type.precision === Precision.SINGLE ? 'float' : type.precision === Precision.DOUBLE ? 'double' : 'halffloat';
    case Type.Decimal: return `decimal128(${type.precision}, ${type.scale})`;
    case Type.Date: return type.unit === DateUnit.DAY ? 'date32[day]' : 'date64[ms]';
    case Type.Time: return `time${type.bitWidth}[${UNIT_NAMES[type.unit]}]`;
    case Type.Timestamp: return `timestamp[${UNIT_NAMES[type.unit]}${type.timezone ? `, tz=${type.timezone}` : ''}]`;
    case Type.Utf8: return 'utf8';
    case Type.Binary: return 'binary';
    case Type.FixedSizeBinary: return `fixed_size_binary[${type.byteWidth}]`;
    case Type.List: return 'list';
    case Type.Struct: return 'struct';
    case Type.Map: return 'map';
    default: throw new Error(`no hoglake spelling for arrow type ${type}`);
  }
}

function metadataJson(map) {
  return '{' + [...(map ?? new Map()).entries()].map(([k, v]) => JSON.stringify(k) + ':' + JSON.stringify(v)).join(',') + '}';
}

export function fieldAsJson(field) {
  let out = `{"name":${JSON.stringify(field.name)},"type":${JSON.stringify(typeName(field.type))},` +
    `"nullable":${field.nullable},"metadata":${metadataJson(field.metadata)}`;
  if (field.type.children?.length) out += ',"children":[' + field.type.children.map(fieldAsJson).join(',') + ']';
  return out + '}';
}

export function schemaAsJson(schema) {
  return '{"fields":[' + schema.fields.map(fieldAsJson).join(',') + '],"metadata":' + metadataJson(schema.metadata) + '}';
}

// ---- numbers ---------------------------------------------------------------

export function doubleJson(x) {
  if (Number.isNaN(x)) return '"NaN"';
  if (x === Infinity) return '"Infinity"';
  if (x === -Infinity) return '"-Infinity"';
  if (Object.is(x, -0)) return '-0.0';
  return String(x);
}

// Shortest digits that round-trip through float32, choosing (like C++
// std::to_chars and Ryu) the candidate nearest the exact value, ties to even.
export function floatJson(x) {
  if (!Number.isFinite(x) || x === 0) return doubleJson(x);
  const exact = Math.abs(x).toExponential(99); // d.ddd…e±n, exact for floats in range
  const [mantissa, exp] = exact.split('e');
  const digits = mantissa.replace('.', '');
  for (let p = 1; p <= 9; p++) {
    const candidate = Number((x < 0 ? '-' : '') + roundDigits(digits, p) + 'e' + (Number(exp) - p + 1));
    if (Math.fround(candidate) === x) return String(candidate);
  }
  return String(x);
}

// The first p digits of `digits`, rounded half to even, as an integer string.
function roundDigits(digits, p) {
  let head = BigInt(digits.slice(0, p));
  const next = digits.charCodeAt(p) - 48;
  const restNonZero = /[1-9]/.test(digits.slice(p + 1));
  if (next > 5 || (next === 5 && (restNonZero || head % 2n === 1n))) head += 1n;
  return head.toString();
}

export function decimalText(unscaled, scale) {
  const negative = unscaled < 0n;
  let digits = (negative ? -unscaled : unscaled).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    digits = digits.slice(0, digits.length - scale) + '.' + digits.slice(digits.length - scale);
  }
  return (negative ? '-' : '') + digits;
}

// ---- dates -----------------------------------------------------------------

const floorDiv = (a, b) => { const q = a / b; return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q; };
const pad = (n, w) => n.toString().padStart(w, '0');

export function dateText(days) {
  // Era-based civil-from-days, in BigInt.
  let z = BigInt(days) + 719468n;
  const era = floorDiv(z, 146097n);
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const day = doy - (153n * mp + 2n) / 5n + 1n;
  const month = mp < 10n ? mp + 3n : mp - 9n;
  const year = yoe + era * 400n + (month <= 2n ? 1n : 0n);
  const y = year > 9999n ? '+' + pad(year, 5) : year < 0n ? '-' + pad(-year, 4) : pad(year, 4);
  return `${y}-${pad(month, 2)}-${pad(day, 2)}`;
}

export function timeText(ticks, perSecond) {
  const seconds = floorDiv(ticks, perSecond);
  const fraction = ticks - seconds * perSecond;
  let out = `${pad(seconds / 3600n, 2)}:${pad((seconds / 60n) % 60n, 2)}:${pad(seconds % 60n, 2)}`;
  const digits = perSecond.toString().length - 1;
  if (digits > 0) out += '.' + pad(fraction, digits);
  return out;
}

export function timestampText(ticks, perSecond, utc) {
  const perDay = perSecond * 86400n;
  const days = floorDiv(ticks, perDay);
  return dateText(days) + 'T' + timeText(ticks - days * perDay, perSecond) + (utc ? 'Z' : '');
}

// ---- values ----------------------------------------------------------------

const bit = (bytes, i) => (bytes[i >> 3] >> (i & 7)) & 1;

function isNull(data, i) {
  return data.nullCount !== 0 && data.nullBitmap && data.nullBitmap.length > 0 &&
    !bit(data.nullBitmap, data.offset + i);
}

function bytesAt(data, i) {
  const offsets = data.valueOffsets;
  return data.values.subarray(Number(offsets[i]), Number(offsets[i + 1]));
}

function int64At(values, i) {
  return typeof values[i] === 'bigint' ? values[i] : BigInt(values[i]);
}

function hex(bytes) { return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(''); }

export function valueJson(data, i) {
  if (isNull(data, i)) return 'null';
  const type = data.type;
  if (data.offset !== 0 && type.typeId !== Type.Bool) throw new Error('renderer expects unsliced data');
  switch (type.typeId) {
    case Type.Bool: return bit(data.values, data.offset + i) ? 'true' : 'false';
    case Type.Int: return type.bitWidth === 64 ? int64At(data.values, i).toString() : String(data.values[i]);
    case Type.Float: return type.precision === Precision.SINGLE ? floatJson(data.values[i]) : doubleJson(data.values[i]);
    case Type.Decimal: {
      const w = data.values; // Uint32Array, four little-endian words per value
      let v = 0n;
      for (let k = 3; k >= 0; k--) v = (v << 32n) | BigInt(w[i * 4 + k]);
      if (v >= (1n << 127n)) v -= 1n << 128n;
      return '"' + decimalText(v, type.scale) + '"';
    }
    case Type.Date: return '"' + dateText(data.values[i]) + '"';
    case Type.Time: return '"' + timeText(int64At(data.values, i), TICKS[type.unit]) + '"';
    case Type.Timestamp: return '"' + timestampText(int64At(data.values, i), TICKS[type.unit], !!type.timezone) + '"';
    case Type.Utf8: return JSON.stringify(utf8.decode(bytesAt(data, i)));
    case Type.Binary: return '"' + Buffer.from(bytesAt(data, i)).toString('base64') + '"';
    case Type.FixedSizeBinary: {
      const bytes = data.values.subarray(i * type.byteWidth, (i + 1) * type.byteWidth);
      if (type.byteWidth !== 16) return '"' + Buffer.from(bytes).toString('base64') + '"';
      const h = hex(bytes);
      return `"${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}"`;
    }
    case Type.List: {
      const items = [];
      for (let k = data.valueOffsets[i]; k < data.valueOffsets[i + 1]; k++) items.push(valueJson(data.children[0], k));
      return '[' + items.join(',') + ']';
    }
    case Type.Struct:
      return '{' + type.children.map((f, c) => JSON.stringify(f.name) + ':' + valueJson(data.children[c], i)).join(',') + '}';
    case Type.Map: {
      const entries = data.children[0];
      const items = [];
      for (let k = data.valueOffsets[i]; k < data.valueOffsets[i + 1]; k++) {
        items.push(`{"key":${valueJson(entries.children[0], k)},"value":${valueJson(entries.children[1], k)}}`);
      }
      return '[' + items.join(',') + ']';
    }
    default: throw new Error(`no JSON rendering for arrow type ${type}`);
  }
}

export function rowsAsJsonLines(table) {
  let out = '';
  for (const batch of table.batches) {
    const columns = batch.schema.fields.map((_, c) => batch.data.children[c]);
    for (let row = 0; row < batch.numRows; row++) {
      out += '{' + batch.schema.fields.map((f, c) => JSON.stringify(f.name) + ':' + valueJson(columns[c], row)).join(',') + '}\n';
    }
  }
  return out;
}
