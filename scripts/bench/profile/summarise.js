"use strict";
// Summarises the CPU profiles and memory reports that bench --profile-dir wrote:
//
//   node scripts/bench/profile/summarise.js <dir> [--top 25] [--match cdc-plugin]
//
// For each profile: CPU time by where the code comes from (pulumi-cdc's provider/, plugin/ and
// catalogue/, each package in node_modules, Node.js internals, GC, idle), the functions with the
// most self time and the most inclusive time; and from the memory report the peak RSS with the
// V8 heap spaces at that moment, GC time, the heap still in use after each full GC, event-loop
// delay and the RPCs' counts and times; and for each heap snapshot (BENCH_PROFILE_HEAP_SNAPSHOT_AFTER)
// the self size of the objects in it by constructor or V8 type; for each allocation profile
// (BENCH_PROFILE_ALLOCATIONS=1) the bytes allocated by origin and function, garbage included.
const fs = require("node:fs");
const path = require("node:path");

const args = process.argv.slice(2);
const dir = args[0];
if (!dir) {
  process.stderr.write("usage: summarise.js <dir> [--top 25] [--match <text>]\n");
  process.exit(1);
}
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : args[i + 1];
};
const TOP = Number(opt("--top", 25));
const MATCH = opt("--match", "");

function origin(url, functionName) {
  if (!url) return functionName.startsWith("(") ? functionName : "(V8 / native)";
  if (url.startsWith("node:")) return "node internals";
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "/node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const m = /\/dist\/(provider|plugin|catalogue|sdk|cli|emulator)\//.exec(url);
  if (m) return `pulumi-cdc ${m[1]}/`;
  if (/noop-plugin\/main\.js$/.test(url)) return "no-op plugin";
  if (/profile\/preload\.js$/.test(url)) return "(profiler preload)";
  return url.replace(/^file:\/\//, "");
}

/** A function as "name origin/file:line" (the file for pulumi-cdc's own and packages' code). */
function where(cf) {
  const o = origin(cf.url, cf.functionName);
  const file = cf.url && !cf.url.startsWith("node:") ? `/${path.basename(cf.url)}` : "";
  return `${cf.functionName || "(anonymous)"} ${o.replace(/\/$/, "")}${file}:${cf.lineNumber + 1}`;
}

const ms = (us) => (us / 1000).toFixed(0).padStart(7);

function summariseProfile(file) {
  const profile = JSON.parse(fs.readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const deltas = profile.timeDeltas;
  let total = 0;
  const samples = profile.samples;
  const inclusive = new Map();
  const byOrigin = new Map();
  for (let i = 0; i < samples.length; i++) {
    const dt = i + 1 < deltas.length ? deltas[i + 1] : 0;
    total += dt;
    const node = byId.get(samples[i]);
    self.set(node.id, (self.get(node.id) ?? 0) + dt);
    const o = origin(node.callFrame.url, node.callFrame.functionName);
    byOrigin.set(o, (byOrigin.get(o) ?? 0) + dt);
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const cf = byId.get(id).callFrame;
      const key = where(cf);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
  }
  const selfByFn = new Map();
  for (const [id, t] of self) {
    const cf = byId.get(id).callFrame;
    const key = where(cf);
    selfByFn.set(key, (selfByFn.get(key) ?? 0) + t);
  }
  const busy = total - (byOrigin.get("(idle)") ?? 0);
  const lines = [`${path.basename(file)}: ${(total / 1e6).toFixed(2)} s profiled, ${(busy / 1e6).toFixed(2)} s not idle`];
  lines.push("  by origin (self ms, % of not idle):");
  for (const [o, t] of [...byOrigin].sort((a, b) => b[1] - a[1])) {
    if (o === "(idle)") continue;
    lines.push(`  ${ms(t)}  ${((100 * t) / busy).toFixed(1).padStart(5)}%  ${o}`);
  }
  lines.push(`  top ${TOP} functions by self time (ms):`);
  for (const [k, t] of [...selfByFn].sort((a, b) => b[1] - a[1]).slice(0, TOP)) if (!k.startsWith("(idle)")) lines.push(`  ${ms(t)}  ${k}`);
  lines.push(`  top ${TOP} functions by inclusive time (ms):`);
  for (const [k, t] of [...inclusive].sort((a, b) => b[1] - a[1]).filter(([k]) => !/^\((root|program|idle|garbage collector)\)/.test(k)).slice(0, TOP)) lines.push(`  ${ms(t)}  ${k}`);
  return lines.join("\n");
}

function summariseMemory(file) {
  const r = JSON.parse(fs.readFileSync(file, "utf8"));
  const mib = (kib) => (kib / 1024).toFixed(1);
  const lines = [`${path.basename(file)}: ${r.process}, lived ${(r.lifetimeMs / 1000).toFixed(1)} s, CPU ${(r.cpu.user / 1e6).toFixed(2)} s user + ${(r.cpu.system / 1e6).toFixed(2)} s system`];
  lines.push(`  VmHWM ${mib(r.vmHwmKiB)} MiB; sampled peak RSS ${mib(r.peakRssKiB)} MiB at ${r.atPeak ? `${(r.atPeak.t / 1000).toFixed(1)} s` : "?"}`);
  if (r.atPeak) {
    const a = r.atPeak;
    lines.push(`  at the peak: V8 heap used ${mib(a.heapUsedKiB)} of ${mib(a.heapTotalKiB)} MiB, external ${mib(a.externalKiB)} MiB (array buffers ${mib(a.arrayBuffersKiB)})`);
    lines.push(`  heap spaces used (MiB): ${Object.entries(a.spacesUsedKiB).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${mib(v)}`).join(", ")}`);
  }
  const first = r.samples[0];
  if (first) lines.push(`  first sample (${first.t} ms): RSS ${mib(first.rssKiB)} MiB, heap used ${mib(first.heapUsedKiB)} MiB`);
  const heapMax = r.samples.reduce((m, s) => Math.max(m, s.heapUsedKiB), 0);
  lines.push(`  largest heap used: ${mib(heapMax)} MiB; heap size limit ${(r.heapStatistics.heap_size_limit / 2 ** 20).toFixed(0)} MiB`);
  lines.push(`  GC: ${r.gc.count} pauses, ${r.gc.ms} ms (${Object.entries(r.gc.byKind).map(([k, v]) => `kind ${k}: ${v} ms`).join(", ")})`);
  const full = r.gc.heapAfterFullGc ?? [];
  if (full.length > 0) lines.push(`  heap in use after each full GC (s: MiB): ${full.map((g) => `${(g.t / 1000).toFixed(1)}: ${mib(g.heapUsedKiB)}`).join(", ")}`);
  lines.push(`  event-loop delay: mean ${r.eventLoopDelayMs.mean} ms, p99 ${r.eventLoopDelayMs.p99} ms, max ${r.eventLoopDelayMs.max} ms`);
  const rpcs = Object.entries(r.rpcs ?? {});
  if (rpcs.length > 0) {
    lines.push(`  RPCs (count, total ms in the process, mean, max; at most ${r.maxRpcsInFlight} at once):`);
    for (const [k, v] of rpcs.sort((a, b) => b[1].ms - a[1].ms)) lines.push(`    ${k.padEnd(14)} ${String(v.count).padStart(5)} ${String(v.ms).padStart(9)} ${(v.ms / v.count).toFixed(1).padStart(7)} ${String(v.maxMs).padStart(8)}`);
  }
  return lines.join("\n");
}

/** A heap snapshot's self sizes by kind of object (constructor for objects, the V8 type otherwise). */
function summariseHeap(file) {
  const snap = JSON.parse(fs.readFileSync(file, "utf8"));
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const F = fields.length;
  const iType = fields.indexOf("type");
  const iName = fields.indexOf("name");
  const iSize = fields.indexOf("self_size");
  const groups = new Map();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += F) {
    const type = types[snap.nodes[i + iType]];
    const name = snap.strings[snap.nodes[i + iName]];
    const size = snap.nodes[i + iSize];
    total += size;
    const key = type === "object" || type === "closure" ? `${type === "closure" ? "(closure) " : ""}${name}` : type === "string" || type === "concatenated string" || type === "sliced string" ? "(strings)" : `(${type})${type === "hidden" || type === "array" || type === "native" ? ` ${name.slice(0, 60)}` : ""}`;
    const g = groups.get(key) ?? { count: 0, size: 0 };
    g.count++;
    g.size += size;
    groups.set(key, g);
  }
  const lines = [`${path.basename(file)}: ${(total / 2 ** 20).toFixed(1)} MiB in ${snap.snapshot.node_count} objects; by self size (MiB, count):`];
  for (const [k, g] of [...groups].sort((a, b) => b[1].size - a[1].size).slice(0, TOP)) lines.push(`  ${(g.size / 2 ** 20).toFixed(2).padStart(7)} ${String(g.count).padStart(8)}  ${k}`);
  return lines.join("\n");
}

/** A sampling heap profile (BENCH_PROFILE_ALLOCATIONS=1): bytes allocated by origin and by function, garbage included. */
function summariseAllocations(file) {
  const profile = JSON.parse(fs.readFileSync(file, "utf8"));
  const byFn = new Map();
  const byOrigin = new Map();
  const inclusive = new Map();
  let total = 0;
  const visit = (node, stack) => {
    const key = where(node.callFrame);
    const o = origin(node.callFrame.url, node.callFrame.functionName);
    total += node.selfSize;
    byFn.set(key, (byFn.get(key) ?? 0) + node.selfSize);
    byOrigin.set(o, (byOrigin.get(o) ?? 0) + node.selfSize);
    const here = stack.includes(key) ? stack : [...stack, key];
    for (const k of here) inclusive.set(k, (inclusive.get(k) ?? 0) + node.selfSize);
    for (const child of node.children ?? []) visit(child, here);
  };
  visit(profile.head, []);
  const mb = (n) => (n / 2 ** 20).toFixed(1).padStart(7);
  const lines = [`${path.basename(file)}: ${(total / 2 ** 20).toFixed(1)} MiB allocated (sampled, garbage included); by origin (MiB):`];
  for (const [o, n] of [...byOrigin].sort((a, b) => b[1] - a[1]).slice(0, TOP)) lines.push(`  ${mb(n)}  ${o}`);
  lines.push(`  top ${TOP} functions by bytes allocated in them (MiB):`);
  for (const [k, n] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, TOP)) lines.push(`  ${mb(n)}  ${k}`);
  lines.push(`  top ${TOP} functions by bytes allocated under them (MiB):`);
  for (const [k, n] of [...inclusive].sort((a, b) => b[1] - a[1]).filter(([k]) => !/^\(root\)/.test(k)).slice(0, TOP)) lines.push(`  ${mb(n)}  ${k}`);
  return lines.join("\n");
}

const files = fs
  .readdirSync(dir, { recursive: true })
  .map(String)
  .filter((f) => f.includes(MATCH))
  .sort();
for (const f of files) {
  const full = path.join(dir, f);
  if (f.endsWith(".json")) process.stdout.write(`${summariseMemory(full)}\n\n`);
}
for (const f of files) {
  const full = path.join(dir, f);
  if (f.endsWith(".cpuprofile")) process.stdout.write(`${summariseProfile(full)}\n\n`);
}
for (const f of files) {
  const full = path.join(dir, f);
  if (f.endsWith(".heapsnapshot")) process.stdout.write(`${summariseHeap(full)}\n\n`);
}
for (const f of files) {
  const full = path.join(dir, f);
  if (f.endsWith(".heapprofile")) process.stdout.write(`${summariseAllocations(full)}\n\n`);
}
