/**
 * A Wireshark dissector in Lua (wireshark/pcie_scope.lua) for the pcie-scope UART protocol as
 * `pcie-scope export --format pcapng` writes it: one packet per frame, COBS removed (type u8 |
 * seq u16 | payload | CRC u16, little-endian), on the user link type DLT_USER0 (147). Frame
 * types, commands and their arguments and replies, status codes, the snapshot's counters, the
 * interval record's words and the latency histograms' layout and bins all come from the spec, so
 * the dissector cannot drift from the firmware. A second protocol, `pcie_scope_tlp` on DLT_USER1
 * (148), dissects the TLP trace's records as `pcie-scope trace --out` writes them.
 */
import type { Layout, SpecModel } from './model.js'
import { banner } from './text.js'

const q = (s: string): string => JSON.stringify(s)
const lower = (s: string): string => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()

const PROTO_FIELD: Record<string, string> = { u8: 'uint8', u16: 'uint16', u32: 'uint32', u64: 'uint64' }

/** Lua lines (into L) declaring one ProtoField per scalar of a layout (counters excepted), under `prefix`. */
const layoutFields = (L: string[], prefix: string, label: string, layout: Layout, extra: Record<string, string> = {}): void => {
  for (const f of layout.fields) {
    if (f.type === 'counters' || f.type === 'histogram') continue
    const v = `${prefix.replaceAll('.', '_')}_${lower(f.name)}`
    const more = extra[f.name] ?? ''
    L.push(`F.${v} = ProtoField.${PROTO_FIELD[f.type]}("pcie_scope.${prefix}.${lower(f.name)}", ${q(`${label} ${f.name}`)}${more})`)
  }
}

/** Lua lines adding a layout's scalars to `tree` from `tvb` at `base` + each field's offset. */
const addLayout = (prefix: string, layout: Layout, base: string, indent: string): string[] =>
  layout.fields
    .filter((f) => f.type !== 'counters' && f.type !== 'histogram')
    .map((f) => `${indent}tree:add_le(F.${prefix.replaceAll('.', '_')}_${lower(f.name)}, tvb(${base} + ${f.offset}, ${f.bytes}))`)

export function emitLua(m: SpecModel): string {
  const proto = m.raw.protocol
  const L: string[] = [
    banner('--'),
    '--',
    '-- Wireshark dissector for the pcie-scope UART protocol: frames as the host frame layer sees them',
    '-- (COBS removed), as `pcie-scope export --format pcapng` writes them on DLT_USER0 (147).',
    '--   tshark -X lua_script:wireshark/pcie_scope.lua -r capture.pcapng',
    '-- It registers itself for the user link type 0; the same through the user DLT table:',
    `--   -o 'uat:user_dlts:"User 0 (DLT=147)","pcie_scope","0","","0",""'`,
    '',
    'local p = Proto("pcie_scope", "pcie-scope UART protocol")',
    '',
    'local frame_types = {',
    ...proto.frameTypes.map((t) => `  [${Number.parseInt(t.id, 16)}] = ${q(t.name)},`),
    '}',
    'local commands = {',
    ...m.commands.map((c) => `  [${c.id}] = ${q(c.name)},`),
    '}',
    'local statuses = {',
    ...proto.status.map((s) => `  [${s.id}] = ${q(s.name)},`),
    '}',
    '',
    '-- the fields live in one table: a Lua function has at most 200 locals, and the spec grows',
    'local F = {}',
    'F.f_type = ProtoField.uint8("pcie_scope.type", "Frame type", base.HEX, frame_types)',
    'F.f_seq = ProtoField.uint16("pcie_scope.seq", "Sequence")',
    'F.f_payload = ProtoField.bytes("pcie_scope.payload", "Payload")',
    'F.f_crc = ProtoField.uint16("pcie_scope.crc", "CRC-16/CCITT-FALSE", base.HEX)',
    'F.f_crc_ok = ProtoField.bool("pcie_scope.crc_ok", "CRC good")',
  ]
  layoutFields(L, 'command', 'command', m.layouts.COMMAND, { cmd: ', base.DEC, commands' })
  layoutFields(L, 'response', 'response', m.layouts.RESPONSE, { cmd: ', base.DEC, commands', status: ', base.DEC, statuses' })
  for (const c of m.commands) {
    const key = lower(c.name)
    layoutFields(L, `${key}.arg`, `${c.name} argument`, c.argsLayout)
    layoutFields(L, `${key}.reply`, `${c.name} reply`, c.replyLayout)
  }
  layoutFields(L, 'snapshot', 'snapshot', m.layouts.SNAPSHOT, { flags: ', base.HEX' })
  for (const c of m.counters) {
    const v = `counter_${lower(c.key)}`
    L.push(`F.${v} = ProtoField.uint64("pcie_scope.counter.${c.name.toLowerCase()}", ${q(c.name)})`)
  }
  layoutFields(L, 'interval', 'interval', m.layouts.INTERVAL)
  L.push('F.f_sample = ProtoField.none("pcie_scope.sample", "Interval record")')
  for (const w of m.sampleWords) {
    const v = `sample_${w.toLowerCase()}`
    L.push(`F.${v} = ProtoField.uint32("pcie_scope.sample.${w.toLowerCase()}", ${q(`SMP_${w}`)})`)
  }
  layoutFields(L, 'trace', 'trace', m.layouts.TRACE)
  L.push('F.f_trace_record = ProtoField.none("pcie_scope.trace_record", "Trace record")')
  for (const w of m.traceWords) {
    L.push(
      `F.trace_rec_${w.toLowerCase()} = ProtoField.uint32("pcie_scope.trace_record.${w.toLowerCase()}", ${q(`TRC_REC_${w}`)}, base.HEX)`,
    )
  }
  layoutFields(L, 'histogram', 'histogram', m.layouts.HISTOGRAM)
  layoutFields(L, 'tap_histogram', 'tap histogram', m.layouts.TAP_HISTOGRAM)
  L.push('F.f_bin = ProtoField.uint64("pcie_scope.histogram.bin", "Latency bin (the overflow bin last)")')
  L.push('local all_fields = {}', 'for _, f in pairs(F) do table.insert(all_fields, f) end', 'p.fields = all_fields', '')

  L.push(
    'local e_crc = ProtoExpert.new("pcie_scope.crc_bad", "CRC mismatch", expert.group.CHECKSUM, expert.severity.ERROR)',
    'local e_short = ProtoExpert.new("pcie_scope.short", "Frame too short", expert.group.MALFORMED, expert.severity.ERROR)',
    'local e_length = ProtoExpert.new("pcie_scope.length", "Payload length does not match the spec", expert.group.MALFORMED, expert.severity.WARN)',
    'p.experts = { e_crc, e_short, e_length }',
    '',
    `-- ${proto.framing.crc.name}: poly ${proto.framing.crc.poly}, init ${proto.framing.crc.init}, not reflected`,
    'local function crc16(tvb, n)',
    `  local crc = ${proto.framing.crc.init}`,
    '  for i = 0, n - 1 do',
    '    crc = bit.bxor(crc, bit.lshift(tvb(i, 1):uint(), 8))',
    '    for _ = 1, 8 do',
    '      if bit.band(crc, 0x8000) ~= 0 then',
    `        crc = bit.band(bit.bxor(bit.lshift(crc, 1), ${proto.framing.crc.poly}), 0xFFFF)`,
    '      else',
    '        crc = bit.band(bit.lshift(crc, 1), 0xFFFF)',
    '      end',
    '    end',
    '  end',
    `  return bit.bxor(crc, ${proto.framing.crc.xorout})`,
    'end',
    '',
    '-- a payload whose whole length the spec fixes: anything else is flagged',
    'local function check_length(tree, item, got, want)',
    '  if got ~= want then item:add_proto_expert_info(e_length, "payload of " .. got .. " B, the spec says " .. want .. " B") end',
    '  return got >= want',
    'end',
    '',
    "-- a header that a body follows (a RESPONSE's reply, an INTERVAL's records): only too short is wrong",
    'local function check_header(item, got, want)',
    '  if got < want then item:add_proto_expert_info(e_length, "payload of " .. got .. " B, shorter than its " .. want .. "-B header") end',
    '  return got >= want',
    'end',
    '',
  )

  // COMMAND: cmd, then the command's arguments
  const cmdBase = m.layouts.COMMAND.bytes
  L.push('local function dissect_command(tvb, tree, item, pinfo)')
  L.push(...addLayout('command', m.layouts.COMMAND, '0', '  '))
  L.push(`  local cmd = tvb(${m.layouts.COMMAND.fields.find((f) => f.name === 'cmd')!.offset}, 1):uint()`)
  L.push('  pinfo.cols.info:append(" " .. (commands[cmd] or ("command " .. cmd)))')
  for (const [i, c] of m.commands.entries()) {
    L.push(`  ${i === 0 ? 'if' : 'elseif'} cmd == ${c.id} then`)
    L.push(`    if not check_length(tree, item, tvb:len(), ${cmdBase + c.argsLayout.bytes}) then return end`)
    L.push(...addLayout(`${lower(c.name)}.arg`, c.argsLayout, String(cmdBase), '    '))
  }
  L.push('  end', 'end', '')

  // RESPONSE: header, then the reply of the command it answers (when OK)
  const rspBase = m.layouts.RESPONSE.bytes
  const rf = (n: string) => m.layouts.RESPONSE.fields.find((f) => f.name === n)!.offset
  L.push('local function dissect_response(tvb, tree, item, pinfo)')
  L.push(`  if not check_header(item, tvb:len(), ${rspBase}) then return end`)
  L.push(...addLayout('response', m.layouts.RESPONSE, '0', '  '))
  L.push(`  local cmd = tvb(${rf('cmd')}, 1):uint()`, `  local status = tvb(${rf('status')}, 1):uint()`)
  L.push('  pinfo.cols.info:append(" " .. (commands[cmd] or ("command " .. cmd)) .. " " .. (statuses[status] or ("status " .. status)))')
  L.push(`  if status ~= ${proto.status.find((s) => s.name === 'OK')!.id} then return end`)
  for (const [i, c] of m.commands.entries()) {
    L.push(`  ${i === 0 ? 'if' : 'elseif'} cmd == ${c.id} then`)
    L.push(`    if not check_length(tree, item, tvb:len(), ${rspBase + c.replyLayout.bytes}) then return end`)
    L.push(...addLayout(`${lower(c.name)}.reply`, c.replyLayout, String(rspBase), '    '))
  }
  L.push('  end', 'end', '')

  // SNAPSHOT: flags, index, every counter (u64), the firmware's link statistics
  const snap = m.layouts.SNAPSHOT
  const counterBlock = snap.fields.find((f) => f.type === 'counters')!
  L.push('local function dissect_snapshot(tvb, tree, item, pinfo)')
  L.push(`  if not check_length(tree, item, tvb:len(), ${snap.bytes}) then return end`)
  L.push(...addLayout('snapshot', snap, '0', '  '))
  for (const c of m.counters) L.push(`  tree:add_le(F.counter_${lower(c.key)}, tvb(${counterBlock.offset + c.index * 8}, 8))`)
  L.push('end', '')

  // INTERVAL: header, then `count` records of the SMP_* words
  const iv = m.layouts.INTERVAL
  const countAt = iv.fields.find((f) => f.name === 'count')!.offset
  L.push('local function dissect_interval(tvb, tree, item, pinfo)')
  L.push(`  if not check_header(item, tvb:len(), ${iv.bytes}) then return end`)
  L.push(...addLayout('interval', iv, '0', '  '))
  L.push(`  local count = tvb(${countAt}, 1):uint()`)
  L.push('  pinfo.cols.info:append(" " .. count .. " records")')
  L.push(`  if not check_length(tree, item, tvb:len(), ${iv.bytes} + count * ${m.intervalRecordBytes}) then return end`)
  L.push('  for r = 0, count - 1 do')
  L.push(`    local at = ${iv.bytes} + r * ${m.intervalRecordBytes}`)
  L.push(`    local rec = tree:add(F.f_sample, tvb(at, ${m.intervalRecordBytes}))`)
  for (const [i, w] of m.sampleWords.entries()) L.push(`    rec:add_le(F.sample_${w.toLowerCase()}, tvb(at + ${i * 4}, 4))`)
  L.push('  end', 'end', '')

  // TRACE: header, then `count` records of the TRC_REC_* words
  const tr = m.layouts.TRACE
  const trCountAt = tr.fields.find((f) => f.name === 'count')!.offset
  L.push('local function dissect_trace(tvb, tree, item, pinfo)')
  L.push(`  if not check_header(item, tvb:len(), ${tr.bytes}) then return end`)
  L.push(...addLayout('trace', tr, '0', '  '))
  L.push(`  local count = tvb(${trCountAt}, 1):uint()`)
  L.push('  pinfo.cols.info:append(" " .. count .. " trace records")')
  L.push(`  if not check_length(tree, item, tvb:len(), ${tr.bytes} + count * ${m.traceRecordBytes}) then return end`)
  L.push('  for r = 0, count - 1 do')
  L.push(`    local at = ${tr.bytes} + r * ${m.traceRecordBytes}`)
  L.push(`    local rec = tree:add(F.f_trace_record, tvb(at, ${m.traceRecordBytes}))`)
  for (const [i, w] of m.traceWords.entries()) L.push(`    rec:add_le(F.trace_rec_${w.toLowerCase()}, tvb(at + ${i * 4}, 4))`)
  L.push('  end', 'end', '')

  // HISTOGRAM, TAP_HISTOGRAM: the header with the bins' layout, then binCount + 1 bins (u64)
  for (const [name, prefix] of [
    ['HISTOGRAM', 'histogram'],
    ['TAP_HISTOGRAM', 'tap_histogram'],
  ] as const) {
    const h = m.layouts[name]
    const binsAt = h.fields.find((f) => f.type === 'histogram')!.offset
    const countAt = h.fields.find((f) => f.name === 'binCount')!.offset
    L.push(`local function dissect_${prefix}(tvb, tree, item, pinfo)`)
    L.push(`  if not check_header(item, tvb:len(), ${binsAt}) then return end`)
    L.push(...addLayout(prefix, h, '0', '  '))
    L.push(`  local count = tvb(${countAt}, 2):le_uint() + 1`)
    L.push('  pinfo.cols.info:append(" " .. count .. " bins")')
    L.push(`  if not check_length(tree, item, tvb:len(), ${binsAt} + count * 8) then return end`)
    L.push(`  for k = 0, count - 1 do tree:add_le(F.f_bin, tvb(${binsAt} + k * 8, 8)) end`)
    L.push('end', '')
  }

  const id = (n: string) => Number.parseInt(proto.frameTypes.find((t) => t.name === n)!.id, 16)
  L.push(
    'local by_type = {',
    `  [${id('COMMAND')}] = dissect_command,`,
    `  [${id('RESPONSE')}] = dissect_response,`,
    `  [${id('SNAPSHOT')}] = dissect_snapshot,`,
    `  [${id('INTERVAL')}] = dissect_interval,`,
    `  [${id('HISTOGRAM')}] = dissect_histogram,`,
    `  [${id('TAP_HISTOGRAM')}] = dissect_tap_histogram,`,
    `  [${id('TRACE')}] = dissect_trace,`,
    '}',
    '',
    'function p.dissector(tvb, pinfo, tree)',
    '  local n = tvb:len()',
    '  pinfo.cols.protocol = "PCIE-SCOPE"',
    '  local item = tree:add(p, tvb(), "pcie-scope frame")',
    `  if n < ${proto.framing.headerBytes + 2} then`,
    '    item:add_proto_expert_info(e_short)',
    '    return n',
    '  end',
    '  item:add(F.f_type, tvb(0, 1))',
    '  item:add_le(F.f_seq, tvb(1, 2))',
    '  local ty = tvb(0, 1):uint()',
    '  local crc_at = n - 2',
    `  if crc_at > ${proto.framing.headerBytes} then item:add(F.f_payload, tvb(${proto.framing.headerBytes}, crc_at - ${proto.framing.headerBytes})) end`,
    '  local want = tvb(crc_at, 2):le_uint()',
    '  local good = crc16(tvb, crc_at) == want',
    '  item:add_le(F.f_crc, tvb(crc_at, 2))',
    '  item:add(F.f_crc_ok, good)',
    '  pinfo.cols.info = (frame_types[ty] or string.format("type 0x%02x", ty)) .. " seq " .. tvb(1, 2):le_uint()',
    '  if not good then',
    '    item:add_proto_expert_info(e_crc)',
    '    pinfo.cols.info:append(" [CRC mismatch]")',
    '    return n',
    '  end',
    '  local sub = by_type[ty]',
    `  if sub and crc_at > ${proto.framing.headerBytes} then sub(tvb(${proto.framing.headerBytes}, crc_at - ${proto.framing.headerBytes}):tvb(), item, item, pinfo) end`,
    '  return n',
    'end',
    '',
    'DissectorTable.get("wtap_encap"):add(wtap.USER0, p)',
    '',
    ...tlpLua(m),
    '',
  )
  return L.join('\n')
}

/**
 * The TLP trace's records as `pcie-scope trace --out` writes them (DIR/trace.pcapng,
 * host/src/export/trace-pcapng.ts): one packet per record, the TRC_REC_* words little-endian, on
 * DLT_USER1 (148). The header is decoded as host/src/core/trace.ts decodes it (docs/trace.md).
 */
const tlpLua = (m: SpecModel): string[] => {
  const kinds = [...(m.raw.registers.registers.find((r) => r.name === 'TRC_TRIG_TYPES')?.fields ?? [])].sort((a, b) => a.bit - b.bit)
  const bytes = 4 * m.traceWords.length
  const w = (name: string) => m.traceWords.indexOf(name)
  return [
    `-- TLP trace records (\`pcie-scope trace --out DIR\`: DIR/trace.pcapng) on DLT_USER1 (148): one packet per`,
    `-- record, its ${m.traceWords.length} TRC_REC_* words (${m.traceWords.join(', ')}) little-endian, as TRACE frames carry them.`,
    '--   tshark -X lua_script:wireshark/pcie_scope.lua -r trace.pcapng -V',
    'local t = Proto("pcie_scope_tlp", "pcie-scope TLP trace record")',
    `local tlp_kinds = { ${kinds.map((f, i) => `[${i}] = ${q(f.name)}`).join(', ')} }`,
    'local tlp_streams = { [0] = "request", [1] = "completion" }',
    'local T = {}',
    'T.dw0 = ProtoField.uint32("pcie_scope_tlp.dw0", "Header DW0", base.HEX)',
    'T.dw1 = ProtoField.uint32("pcie_scope_tlp.dw1", "Header DW1", base.HEX)',
    'T.dw2 = ProtoField.uint32("pcie_scope_tlp.dw2", "Header DW2", base.HEX)',
    'T.dw3 = ProtoField.uint32("pcie_scope_tlp.dw3", "Header DW3", base.HEX)',
    'T.kind = ProtoField.uint8("pcie_scope_tlp.kind", "Kind", base.DEC, tlp_kinds)',
    'T.fmt = ProtoField.uint8("pcie_scope_tlp.fmt", "Fmt", base.DEC)',
    'T.type = ProtoField.uint8("pcie_scope_tlp.type", "Type", base.HEX)',
    'T.length = ProtoField.uint16("pcie_scope_tlp.length", "Length (DW)")',
    'T.tag = ProtoField.uint16("pcie_scope_tlp.tag", "Tag (T9, T8, Tag)")',
    'T.requester_id = ProtoField.uint16("pcie_scope_tlp.requester_id", "Requester ID", base.HEX)',
    'T.address = ProtoField.uint64("pcie_scope_tlp.address", "Address", base.HEX)',
    'T.first_be = ProtoField.uint8("pcie_scope_tlp.first_be", "First DW BE", base.HEX)',
    'T.last_be = ProtoField.uint8("pcie_scope_tlp.last_be", "Last DW BE", base.HEX)',
    'T.completer_id = ProtoField.uint16("pcie_scope_tlp.completer_id", "Completer ID", base.HEX)',
    'T.status = ProtoField.uint8("pcie_scope_tlp.status", "Completion status", base.DEC, { [0] = "SC", [1] = "UR", [2] = "CRS", [4] = "CA" })',
    'T.byte_count = ProtoField.uint16("pcie_scope_tlp.byte_count", "Byte Count")',
    'T.lower_address = ProtoField.uint8("pcie_scope_tlp.lower_address", "Lower Address", base.HEX)',
    'T.clock = ProtoField.uint64("pcie_scope_tlp.clock", "Tap clock (probe clocks since reset)")',
    'T.segment = ProtoField.uint8("pcie_scope_tlp.segment", "Segment")',
    'T.stream = ProtoField.uint8("pcie_scope_tlp.stream", "Stream", base.DEC, tlp_streams)',
    'T.tap = ProtoField.uint8("pcie_scope_tlp.tap", "Tap")',
    't.fields = T',
    `local e_tlp_length = ProtoExpert.new("pcie_scope_tlp.bad_length", "not a ${bytes}-B trace record", expert.group.MALFORMED, expert.severity.ERROR)`,
    't.experts = { e_tlp_length }',
    '',
    'local U32 = 4294967296',
    'local function tlp_kind(fmt, ty)',
    '  if fmt < 2 and ty < 2 then return 0 end -- MRd, MRdLk',
    '  if (fmt == 2 or fmt == 3) and ty == 0 then return 1 end -- MWr',
    '  if (fmt == 0 or fmt == 2) and (ty == 10 or ty == 11) then return fmt == 2 and 2 or 3 end -- CplD / Cpl',
    '  return 4',
    'end',
    '',
    'function t.dissector(tvb, pinfo, tree)',
    '  pinfo.cols.protocol = "PCIE-TLP"',
    '  local item = tree:add(t, tvb(), "pcie-scope TLP trace record")',
    `  if tvb:len() ~= ${bytes} then`,
    '    item:add_proto_expert_info(e_tlp_length)',
    '    return tvb:len()',
    '  end',
    '  local w = {}',
    `  for i = 0, ${m.traceWords.length - 1} do w[i] = tvb(i * 4, 4):le_uint() end`,
    `  local dw0, dw1, dw2, dw3 = w[${w('DW0')}], w[${w('DW1')}], w[${w('DW2')}], w[${w('DW3')}]`,
    `  local ts_lo, info = w[${w('TS_LO')}], w[${w('INFO')}]`,
    `  local r0, r1, r2, r3 = tvb(${w('DW0')} * 4, 4), tvb(${w('DW1')} * 4, 4), tvb(${w('DW2')} * 4, 4), tvb(${w('DW3')} * 4, 4)`,
    `  local rts, rinfo = tvb(${w('TS_LO')} * 4, 4), tvb(${w('INFO')} * 4, 4)`,
    '  local fmt = bit.rshift(dw0, 29)',
    '  local ty = bit.band(bit.rshift(dw0, 24), 0x1f)',
    '  local kind = tlp_kind(fmt, ty)',
    '  local len = bit.band(dw0, 0x3ff)',
    '  if len == 0 then len = 1024 end',
    '  local cpl = kind == 2 or kind == 3',
    '  local tag_low, rid',
    '  if cpl then',
    '    tag_low, rid = bit.band(bit.rshift(dw2, 8), 0xff), bit.rshift(dw2, 16)',
    '  else',
    '    tag_low, rid = bit.band(bit.rshift(dw1, 8), 0xff), bit.rshift(dw1, 16)',
    '  end',
    '  local tag = bit.band(bit.rshift(dw0, 23), 1) * 512 + bit.band(bit.rshift(dw0, 19), 1) * 256 + tag_low',
    '  local hdr = item:add(t, tvb(0, 16), "Header")',
    '  hdr:add_le(T.dw0, r0)',
    '  hdr:add_le(T.dw1, r1)',
    '  hdr:add_le(T.dw2, r2)',
    '  hdr:add_le(T.dw3, r3)',
    '  item:add(T.kind, r0, kind)',
    '  item:add(T.fmt, r0, fmt)',
    '  item:add(T.type, r0, ty)',
    '  item:add(T.length, r0, len)',
    '  item:add(T.tag, cpl and r2 or r1, tag)',
    '  item:add(T.requester_id, cpl and r2 or r1, rid)',
    '  local what = (tlp_kinds[kind] or "?") .. " tag " .. tag .. " len " .. len',
    '  if kind == 0 or kind == 1 then',
    '    local hi, lo',
    '    if fmt % 2 == 1 then hi, lo = dw2, bit.band(dw3, 0xfffffffc) % U32 else hi, lo = 0, bit.band(dw2, 0xfffffffc) % U32 end',
    '    item:add(T.address, fmt % 2 == 1 and tvb(8, 8) or r2, UInt64.new(lo, hi))',
    '    item:add(T.first_be, r1, bit.band(dw1, 0xf))',
    '    item:add(T.last_be, r1, bit.band(bit.rshift(dw1, 4), 0xf))',
    '    what = what .. string.format(" addr 0x%08x%08x", hi, lo)',
    '  end',
    '  if cpl then',
    '    local bc = bit.band(dw1, 0xfff)',
    '    if bc == 0 then bc = 4096 end',
    '    local st = bit.band(bit.rshift(dw1, 13), 7)',
    '    item:add(T.completer_id, r1, bit.rshift(dw1, 16))',
    '    item:add(T.status, r1, st)',
    '    item:add(T.byte_count, r1, bc)',
    '    item:add(T.lower_address, r2, bit.band(dw2, 0x7f))',
    '    what = what .. " bc " .. bc .. (st ~= 0 and (" status " .. st) or "")',
    '  end',
    '  local tap = bit.rshift(info, 24)',
    '  item:add(T.clock, tvb(16, 8), UInt64.new(ts_lo, bit.band(info, 0xffff)))',
    '  item:add(T.segment, rinfo, bit.band(bit.rshift(info, 16), 3))',
    '  item:add(T.stream, rinfo, bit.band(bit.rshift(info, 18), 1))',
    '  item:add(T.tap, rinfo, tap)',
    '  pinfo.cols.info = "tap " .. tap .. " " .. what .. " rid " .. string.format("0x%04x", rid)',
    '  return tvb:len()',
    'end',
    '',
    'DissectorTable.get("wtap_encap"):add(wtap.USER1, t)',
  ]
}
