"use strict";
// Profiling of the provider processes during a bench run (bench --profile-dir <dir>): loaded into
// every Node.js process of a step through NODE_OPTIONS=--require, it does nothing unless the
// process is a provider (the dynamic-provider host, pulumi-resource-cdc: dist/plugin/
// pulumi-resource-cdc.js, the bundle, or main.js; the no-op plugin, noop-plugin/main.js) or the
// pulumi-cdc CLI (dist/cli/index.js: the drift step). In those it records, into BENCH_PROFILE_OUT:
//   <name>-<pid>.cpuprofile   a CPU profile of the whole process (open in Chrome DevTools, or summarise.js)
//   <name>-<pid>.json         memory samples (RSS, V8 heap by space, external), GC pauses, event-loop
//                             delay and, for the plugins, each RPC's count and time in the process;
//                             the heap in use after each full GC (what the process keeps)
//   <name>-<pid>.heapprofile  with BENCH_PROFILE_ALLOCATIONS=1: where the process allocated, garbage
//                             included (V8's sampling heap profiler, one sample per 32 KiB)
//   <name>-<pid>-<n>.heapsnapshot  with BENCH_PROFILE_HEAP_SNAPSHOT_AFTER=<n>: a heap snapshot once a
//                             plugin has answered n resource RPCs (check, diff, create, read, update, delete)
// The engine stops a provider with SIGINT (then SIGKILL after 5 s), so everything is written on
// SIGINT, SIGTERM or exit. Timings taken with it are not comparable with the bench's own.
const WHICH = [
  { name: "dynamic-provider", test: /cmd[/\\]dynamic-provider/ },
  { name: "cdc-plugin", test: /dist[/\\]plugin[/\\](main|pulumi-resource-cdc)\.js$/ },
  { name: "noop-plugin", test: /noop-plugin[/\\]main\.js$/ },
  { name: "drift-cli", test: /dist[/\\]cli[/\\]index\.js$/ },
];
const out = process.env.BENCH_PROFILE_OUT;
const which = out ? WHICH.find((w) => process.argv.slice(1).some((a) => w.test.test(a))) : undefined;
if (which) start(out, which.name);

function start(dir, name) {
  const fs = require("node:fs");
  const path = require("node:path");
  const inspector = require("node:inspector");
  const v8 = require("node:v8");
  const { monitorEventLoopDelay, PerformanceObserver, performance } = require("node:perf_hooks");
  fs.mkdirSync(dir, { recursive: true });
  const base = path.join(dir, `${name}-${process.pid}`);
  const t0 = performance.now();

  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: Number(process.env.BENCH_PROFILE_INTERVAL_US ?? 500) });
  session.post("Profiler.start");
  const allocations = process.env.BENCH_PROFILE_ALLOCATIONS === "1";
  if (allocations) {
    session.post("HeapProfiler.enable");
    session.post("HeapProfiler.startSampling", { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }

  const samples = [];
  let peak = { rss: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, Math.round(s.space_used_size / 1024)]));
    const entry = { t: Math.round(performance.now() - t0), rssKiB: Math.round(m.rss / 1024), heapUsedKiB: Math.round(m.heapUsed / 1024), heapTotalKiB: Math.round(m.heapTotal / 1024), externalKiB: Math.round(m.external / 1024), arrayBuffersKiB: Math.round(m.arrayBuffers / 1024), spacesUsedKiB: spaces };
    samples.push(entry);
    if (entry.rssKiB > peak.rss) peak = { rss: entry.rssKiB, at: entry };
  };
  sample();
  const timer = setInterval(sample, 200);
  timer.unref();

  const gc = { count: 0, ms: 0, byKind: {}, afterFull: [] };
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gc.count++;
      gc.ms += e.duration;
      const kind = e.detail?.kind ?? e.kind;
      gc.byKind[String(kind)] = (gc.byKind[String(kind)] ?? 0) + e.duration;
      // NODE_PERFORMANCE_GC_MAJOR: what is still in use after it is what the process keeps.
      if (kind === 4) gc.afterFull.push({ t: Math.round(performance.now() - t0), heapUsedKiB: Math.round(process.memoryUsage().heapUsed / 1024) });
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();

  // The plugins' RPCs: how many, and how long each kind took in the process (arrival to answer).
  const rpcs = {};
  const snapshotAfter = Number(process.env.BENCH_PROFILE_HEAP_SNAPSHOT_AFTER ?? 0);
  const RESOURCE_RPCS = new Set(["check", "diff", "create", "read", "update", "delete"]);
  let resourceRpcs = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  if (name !== "dynamic-provider") {
    try {
      const { createRequire } = require("node:module");
      const sdkRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [path.dirname(process.argv[1])] }));
      const grpc = createRequire(path.join(sdkRoot, "package.json"))("@grpc/grpc-js");
      const addService = grpc.Server.prototype.addService;
      grpc.Server.prototype.addService = function (service, impl) {
        const wrapped = {};
        for (const [method, fn] of Object.entries(impl)) {
          wrapped[method] = (call, callback) => {
            const began = performance.now();
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
            fn(call, (...args) => {
              inFlight--;
              const r = (rpcs[method] ??= { count: 0, ms: 0, maxMs: 0 });
              const ms = performance.now() - began;
              r.count++;
              r.ms += ms;
              r.maxMs = Math.max(r.maxMs, ms);
              callback(...args);
              if (RESOURCE_RPCS.has(method) && ++resourceRpcs === snapshotAfter) v8.writeHeapSnapshot(`${base}-${snapshotAfter}.heapsnapshot`);
            });
          };
        }
        return addService.call(this, service, wrapped);
      };
    } catch (err) {
      process.stderr.write(`bench profile: RPC timing unavailable: ${err.message}\n`);
    }
  }

  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    sample();
    session.post("Profiler.stop", (err, result) => {
      if (!err) fs.writeFileSync(`${base}.cpuprofile`, JSON.stringify(result.profile));
    });
    if (allocations) {
      session.post("HeapProfiler.stopSampling", (err, result) => {
        if (!err) fs.writeFileSync(`${base}.heapprofile`, JSON.stringify(result.profile));
      });
    }
    loop.disable();
    const round = (n) => Math.round(n * 10) / 10;
    for (const r of Object.values(rpcs)) {
      r.ms = round(r.ms);
      r.maxMs = round(r.maxMs);
    }
    const report = {
      process: name,
      argv: process.argv.slice(1),
      lifetimeMs: Math.round(performance.now() - t0),
      cpu: process.cpuUsage(),
      peakRssKiB: peak.rss,
      atPeak: peak.at,
      vmHwmKiB: Number(/^VmHWM:\s+(\d+)/m.exec(safeRead("/proc/self/status"))?.[1] ?? 0),
      heapStatistics: v8.getHeapStatistics(),
      gc: { count: gc.count, ms: round(gc.ms), byKind: Object.fromEntries(Object.entries(gc.byKind).map(([k, v]) => [k, round(v)])), heapAfterFullGc: gc.afterFull },
      eventLoopDelayMs: { mean: round(loop.mean / 1e6), p99: round(loop.percentile(99) / 1e6), max: round(loop.max / 1e6) },
      rpcs,
      maxRpcsInFlight: maxInFlight,
      samples,
    };
    fs.writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 1)}\n`);
  };
  const safeRead = (file) => {
    try {
      return fs.readFileSync(file, "utf8");
    } catch {
      return "";
    }
  };
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      finish();
      process.exit(0);
    });
  }
  process.on("exit", finish);
}
