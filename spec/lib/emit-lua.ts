/**
 * A Wireshark dissector in Lua (wireshark/pcie_scope.lua) for the pcie-scope UART protocol as
 * `pcie-scope export --format pcapng` writes it: one packet per frame, COBS removed (type u8 |
 * seq u16 | payload | CRC u16, little-endian), on the user link type DLT_USER0 (147). Frame
 * types, commands and their arguments and replies, status codes, the snapshot's counters, the
 * interval record's words and the latency histograms' layout and bins all come from the spec, so
 * the dissector cannot drift from the firmware.
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
  )
  return L.join('\n')
}
