// Arrow IPC interop: apache-arrow (npm) and hoglake must read each other's
// streams and see the same schema and values.
//   1. hoglake writes a corpus of every column type (arrow_corpus); apache-arrow
//      reads it; its rendering equals `hoglake arrow cat` / `arrow schema --json`.
//   2. apache-arrow writes a stream of every type built from raw buffers here;
//      `hoglake arrow cat` / `arrow schema --json` equal apache-arrow's rendering.
// Needs HOGLAKE_BIN and ARROW_CORPUS_BIN (set by CTest).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  tableFromIPC, tableToIPC, makeData, Table, RecordBatch, Schema, Field, Struct, List, Map_,
  Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64, Float32, Float64, Decimal,
  DateDay, TimeMicrosecond, TimestampSecond, TimestampMillisecond, TimestampMicrosecond,
  TimestampNanosecond, Utf8, Binary, FixedSizeBinary, TimeUnit, Timestamp,
} from 'apache-arrow';
import { rowsAsJsonLines, schemaAsJson } from './arrow_render.mjs';

const hoglake = process.env.HOGLAKE_BIN;
const corpusBin = process.env.ARROW_CORPUS_BIN;
assert.ok(hoglake, 'HOGLAKE_BIN must point at the hoglake executable');
assert.ok(corpusBin, 'ARROW_CORPUS_BIN must point at the arrow_corpus executable');
const dir = mkdtempSync(join(tmpdir(), 'hoglake-arrow-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const run = (...args) => execFileSync(hoglake, args, { encoding: 'utf8', maxBuffer: 1 << 28 });

test('apache-arrow reads the stream hoglake writes, value for value', () => {
  const path = join(dir, 'corpus.arrows');
  execFileSync(corpusBin, [path]);
  const table = tableFromIPC(readFileSync(path));
  assert.equal(table.batches.length, 3);
  assert.equal(table.numRows, 300 + 70 + 0);
  assert.equal(table.schema.fields.length, 28);

  // Spot checks that do not go through hoglake's reader at all.
  const i64 = table.schema.fields.find((f) => f.name === 'i64');
  assert.equal(i64.nullable, false);
  assert.equal(i64.metadata.get('PARQUET:field_id'), '5');
  assert.equal(table.schema.fields.find((f) => f.name === 'uuid').metadata.get('ARROW:extension:name'), 'arrow.uuid');
  assert.equal(table.schema.metadata.get('origin'), 'hoglake interop corpus');
  const values = [...table.getChild('i64')];
  assert.ok(values.includes(-(2n ** 63n)) && values.includes(2n ** 63n - 1n));
  assert.ok([...table.getChild('u64')].includes(2n ** 64n - 1n));
  const s = [...table.getChild('s')];
  assert.ok(s.includes('✓ 😀 漢字') && s.includes(null) && s.includes(''));
  assert.equal(table.getChild('st').get(1).toJSON().x, 1000003n);

  assert.equal(schemaAsJson(table.schema) + '\n', run('arrow', 'schema', '--json', path));
  const ours = run('arrow', 'cat', path).split('\n');
  const theirs = rowsAsJsonLines(table).split('\n');
  assert.equal(ours.length, theirs.length);
  for (let i = 0; i < ours.length; i++) assert.equal(ours[i], theirs[i], `row ${i}`);
});

// ---- a stream written by apache-arrow --------------------------------------

const N = 40;
const validity = (nullEvery) => {
  const bits = new Uint8Array(Math.ceil(N / 8));
  let nulls = 0;
  for (let i = 0; i < N; i++) {
    if (nullEvery && i % nullEvery === nullEvery - 1) nulls++;
    else bits[i >> 3] |= 1 << (i & 7);
  }
  return { nullBitmap: bits, nullCount: nulls };
};
const fid = (id, extra = []) => new Map([['PARQUET:field_id', String(id)], ...extra]);

function prim(type, values, nullEvery = 0) {
  return makeData({ type, length: N, data: values, ...validity(nullEvery) });
}

function strings(type, make, nullEvery = 0, length = N) {
  const enc = new TextEncoder();
  const parts = [];
  const offsets = new Int32Array(length + 1);
  for (let i = 0; i < length; i++) {
    const bytes = typeof make(i) === 'string' ? enc.encode(make(i)) : make(i);
    parts.push(bytes);
    offsets[i + 1] = offsets[i] + bytes.length;
  }
  const data = new Uint8Array(offsets[length]);
  parts.forEach((p, i) => data.set(p, offsets[i]));
  const v = length === N ? validity(nullEvery) : {};
  return makeData({ type, length, valueOffsets: offsets, data, ...v });
}

function arrowWrittenTable() {
  const fields = [];
  const columns = [];
  const add = (name, type, data, id, nullable = true, meta = []) => {
    fields.push(new Field(name, type, nullable, fid(id, meta)));
    columns.push(data);
  };
  const ints = (Ctor, f) => Ctor.from({ length: N }, (_, i) => f(i));
  add('b', new Bool(), makeData({ type: new Bool(), length: N, data: new Uint8Array([0b10110101, 0x0f, 0xf0, 0x55, 0xaa]), ...validity(6) }), 1);
  add('i8', new Int8(), prim(new Int8(), ints(Int8Array, (i) => (i * 37) % 256 - 128), 5), 2);
  add('i16', new Int16(), prim(new Int16(), ints(Int16Array, (i) => i * 1601 - 32768), 4), 3);
  add('i32', new Int32(), prim(new Int32(), ints(Int32Array, (i) => (i % 2 ? -1 : 1) * i * 53687091)), 4);
  add('i64', new Int64(), prim(new Int64(), BigInt64Array.from({ length: N }, (_, i) => i === 0 ? -(2n ** 63n) : BigInt(i) * 230584300921369395n - 2n ** 62n), 7), 5);
  add('u8', new Uint8(), prim(new Uint8(), ints(Uint8Array, (i) => i * 6)), 6);
  add('u16', new Uint16(), prim(new Uint16(), ints(Uint16Array, (i) => i * 1638)), 7);
  add('u32', new Uint32(), prim(new Uint32(), ints(Uint32Array, (i) => i * 107374182), 3), 8);
  add('u64', new Uint64(), prim(new Uint64(), BigUint64Array.from({ length: N }, (_, i) => 2n ** 64n - 1n - BigInt(i) * 999999999999n)), 9);
  const specials32 = [NaN, Infinity, -Infinity, -0, 0.1, 3.4028234663852886e38, 1e-45];
  add('f32', new Float32(), prim(new Float32(), Float32Array.from({ length: N }, (_, i) => i < 7 ? specials32[i] : i / 3)), 10);
  const specials64 = [NaN, Infinity, -Infinity, -0, 0.1, 1e21, 1.5e-7, 5e-324];
  add('f64', new Float64(), prim(new Float64(), Float64Array.from({ length: N }, (_, i) => i < 8 ? specials64[i] : i * 1e15 / 7), 9), 11);
  const dec = new Uint32Array(N * 4);
  for (let i = 0; i < N; i++) {
    let v = (BigInt(i) * 123456789012345678901234567n) * (i % 2 ? -1n : 1n);
    if (v < 0n) v += 1n << 128n;
    for (let k = 0; k < 4; k++) dec[i * 4 + k] = Number((v >> BigInt(32 * k)) & 0xffffffffn);
  }
  add('dec', new Decimal(10, 38, 128), makeData({ type: new Decimal(10, 38, 128), length: N, data: dec, ...validity(8) }), 12);
  add('d', new DateDay(), prim(new DateDay(), ints(Int32Array, (i) => i * 99991 - 2000000)), 14);
  add('t', new TimeMicrosecond(), prim(new TimeMicrosecond(), BigInt64Array.from({ length: N }, (_, i) => BigInt(i) * 2159999999n)), 15);
  const ts = (i) => BigInt(i) * 98765432109876543n - 2n ** 61n;
  add('ts_s', new TimestampSecond(), prim(new TimestampSecond(), BigInt64Array.from({ length: N }, (_, i) => ts(i) / 1000000000n)), 16);
  add('ts_ms', new TimestampMillisecond(), prim(new TimestampMillisecond(), BigInt64Array.from({ length: N }, (_, i) => ts(i) / 1000000n)), 17);
  add('ts_us', new TimestampMicrosecond(), prim(new TimestampMicrosecond(), BigInt64Array.from({ length: N }, (_, i) => ts(i) / 1000n), 5), 18);
  add('ts_ns', new TimestampNanosecond(), prim(new TimestampNanosecond(), BigInt64Array.from({ length: N }, (_, i) => ts(i))), 19);
  const tz = new Timestamp(TimeUnit.MICROSECOND, 'UTC');
  add('tstz', tz, prim(tz, BigInt64Array.from({ length: N }, (_, i) => BigInt(i) * 1757073600123456n / 20n)), 20);
  const words = ['', 'a', 'héllo', 'tab\t', 'q"b\\', '✓😀', '\u0001'];
  add('s', new Utf8(), strings(new Utf8(), (i) => words[i % words.length] + (i > 20 ? String(i) : ''), 4), 21);
  add('j', new Utf8(), strings(new Utf8(), (i) => JSON.stringify({ i })), 22, true, [['ARROW:extension:name', 'arrow.json']]);
  add('bin', new Binary(), strings(new Binary(), (i) => Uint8Array.from({ length: i % 6 }, (_, k) => (i * 31 + k * 7) & 255), 5), 23);
  const uuids = Uint8Array.from({ length: N * 16 }, (_, k) => (k * 97 + 13) & 255);
  add('uuid', new FixedSizeBinary(16), makeData({ type: new FixedSizeBinary(16), length: N, data: uuids, ...validity(10) }), 24, true, [['ARROW:extension:name', 'arrow.uuid']]);

  // list<int32>: list i holds i % 4 elements; the element at k % 5 == 4 is null.
  const elementField = new Field('element', new Int32(), true, fid(31));
  const listOffsets = new Int32Array(N + 1);
  for (let i = 0; i < N; i++) listOffsets[i + 1] = listOffsets[i] + (i % 4);
  const total = listOffsets[N];
  const elemBits = new Uint8Array(Math.ceil(total / 8));
  let elemNulls = 0;
  for (let k = 0; k < total; k++) { if (k % 5 === 4) elemNulls++; else elemBits[k >> 3] |= 1 << (k & 7); }
  const elements = makeData({ type: new Int32(), length: total, data: Int32Array.from({ length: total }, (_, k) => k * 1000 - 7), nullBitmap: elemBits, nullCount: elemNulls });
  const listType = new List(elementField);
  add('l', listType, makeData({ type: listType, length: N, valueOffsets: listOffsets, child: elements, ...validity(6) }), 30);

  // struct<x: int64 not null, y: utf8>
  const stType = new Struct([new Field('x', new Int64(), false, fid(51)), new Field('y', new Utf8(), true, fid(52))]);
  const stData = makeData({
    type: stType, length: N, ...validity(7),
    children: [prim(new Int64(), BigInt64Array.from({ length: N }, (_, i) => BigInt(i) ** 5n)), strings(new Utf8(), (i) => `y${i}`, 3)],
  });
  add('st', stType, stData, 50);

  // map<utf8, float64>: map i holds i % 3 entries.
  const mapOffsets = new Int32Array(N + 1);
  for (let i = 0; i < N; i++) mapOffsets[i + 1] = mapOffsets[i] + (i % 3);
  const entriesN = mapOffsets[N];
  const keys = strings(new Utf8(), (k) => `k${k}`, 0, entriesN);
  const vals = makeData({ type: new Float64(), length: entriesN, data: Float64Array.from({ length: entriesN }, (_, k) => k / 4) });
  const entriesType = new Struct([new Field('key', new Utf8(), false, fid(62)), new Field('value', new Float64(), true, fid(63))]);
  const entries = makeData({ type: entriesType, length: entriesN, children: [keys, vals] });
  const mapType = new Map_(new Field('entries', entriesType, false));
  add('m', mapType, makeData({ type: mapType, length: N, valueOffsets: mapOffsets, child: entries, ...validity(5) }), 60);

  const schema = new Schema(fields, new Map([['writer', 'apache-arrow']]));
  const batchData = makeData({ type: new Struct(fields), length: N, nullCount: 0, children: columns });
  return new Table([new RecordBatch(schema, batchData)]);
}

test('hoglake reads the stream apache-arrow writes, value for value', () => {
  const path = join(dir, 'from-arrow.arrows');
  writeFileSync(path, tableToIPC(arrowWrittenTable(), 'stream'));
  const table = tableFromIPC(readFileSync(path));
  assert.equal(run('arrow', 'schema', '--json', path), schemaAsJson(table.schema) + '\n');
  const ours = run('arrow', 'cat', path).split('\n');
  const theirs = rowsAsJsonLines(table).split('\n');
  assert.equal(ours.length, N + 1);
  for (let i = 0; i < ours.length; i++) assert.equal(ours[i], theirs[i], `row ${i}`);
});

test('hoglake refuses a truncated apache-arrow stream with a clear error', () => {
  const bytes = tableToIPC(arrowWrittenTable(), 'stream');
  const path = join(dir, 'truncated.arrows');
  writeFileSync(path, bytes.subarray(0, bytes.length - 100));
  assert.throws(() => execFileSync(hoglake, ['arrow', 'cat', path], { stdio: 'pipe' }), (err) => {
    assert.equal(err.status, 1);
    assert.match(err.stderr.toString(), /invalid_data: .*(truncat|end of stream|past)/i);
    return true;
  });
});
