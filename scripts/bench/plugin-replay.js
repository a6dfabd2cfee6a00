#!/usr/bin/env node
// A/B of provider plugin builds without the engine: starts each launcher given (a shell script
// that execs node on a plugin, as bin/pulumi-resource-cdc does), drives it over gRPC as the engine
// would for N PostgreSQL sources against the emulator (Configure; Check and Create each; then a
// preview's Check and Diff each; a refresh's Read and Diff each; Delete each), and reports the
// plugin process's CPU time and peak RSS (VmHWM), and the time to its port. Rounds alternate the
// launchers, so load from elsewhere hits all alike; medians. CPU and memory, not wall time, are
// what it is for: the engine's own share is the bench's (npm run bench).
//
//   node scripts/bench/plugin-replay.js [--count 200] [--rounds 3] <launcher> [<launcher> ...]
//
// Run after `npm run build` (it uses dist/emulator and the protocol modules of plugin/proto).
"use strict";
const { spawn } = require("node:child_process");
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const { parseArgs } = require("node:util");

const ROOT = join(__dirname, "..", "..");
const { startEmulator } = require(join(ROOT, "dist", "emulator", "index.js"));
const { grpc, provproto, provrpc, structproto } = require(join(ROOT, "dist", "plugin", "proto.js"));
const { SIG_KEY, SECRET_SIG } = require(join(ROOT, "dist", "provider", "secret-signature.js"));
const secret = (value) => ({ [SIG_KEY]: SECRET_SIG, value });
const struct = (v) => structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(v)));

const { values, positionals } = parseArgs({ allowPositionals: true, options: { count: { type: "string" }, rounds: { type: "string" } } });
const COUNT = Math.min(Math.max(Number(values.count ?? 200), 1), 1000); // bounded
const ROUNDS = Math.min(Math.max(Number(values.rounds ?? 3), 1), 5);
if (positionals.length === 0) {
  process.stderr.write("usage: plugin-replay.js [--count n] [--rounds n] <launcher> ...\n");
  process.exit(1);
}

const procStat = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return { cpuMs: (Number(f[11]) + Number(f[12])) * 10, hwmMiB: Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024 };
};

async function once(launcher, emulator, round) {
  const started = process.hrtime.bigint();
  const child = spawn(launcher, [], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`${launcher}: no port within 60 s`)), 60_000);
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("\n")) {
          clearTimeout(timer);
          resolve(Number(out.split("\n")[0]));
        }
      });
      child.on("exit", (code) => reject(new Error(`${launcher} exited with ${code}`)));
    });
    const toPortMs = Number(process.hrtime.bigint() - started) / 1e6;
    const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const call = (method, req) => new Promise((resolve, reject) => client[method](req, (err, resp) => (err ? reject(err) : resolve(resp))));
    const cfg = new provproto.ConfigureRequest();
    cfg.setArgs(struct({ apiUrl: emulator.url, clientId: emulator.clientId, clientSecret: secret(emulator.clientSecret), version: "0.1.0" }));
    cfg.setAcceptsecrets(true);
    await call("configure", cfg);
    const urn = (i) => `urn:pulumi:replay::replay::cdc:index:Source::src-${i}`;
    const news = (i) =>
      struct({
        name: `replay-${round}-${process.pid}-src-${i}`,
        connector: "postgresql",
        config: { "database.hostname.user.defined": "db.internal", "database.port.user.defined": 5432, "database.user": "cdc", "database.password": secret("bench-password"), "database.dbname": "shop", "table.include.list.user.defined": `public.orders_${i}`, "schema.include.list": "public" },
      });
    const check = async (i, olds) => {
      const req = new provproto.CheckRequest();
      req.setUrn(urn(i));
      req.setOlds(olds ?? new structproto.Struct());
      req.setNews(news(i));
      return (await call("check", req)).getInputs();
    };
    const diff = async (i, id, olds, inputs) => {
      const req = new provproto.DiffRequest();
      req.setUrn(urn(i));
      req.setId(id);
      req.setOlds(olds);
      req.setOldInputs(inputs);
      req.setNews(inputs);
      return call("diff", req);
    };
    const phases = {};
    let mark = procStat(child.pid).cpuMs;
    const phase = (name) => {
      const now = procStat(child.pid).cpuMs;
      phases[name] = now - mark;
      mark = now;
    };
    phase("start");
    const state = [];
    for (let i = 0; i < COUNT; i++) {
      const inputs = await check(i);
      const req = new provproto.CreateRequest();
      req.setUrn(urn(i));
      req.setProperties(inputs);
      const resp = await call("create", req);
      state.push({ id: resp.getId(), outs: resp.getProperties(), inputs });
    }
    phase("up");
    for (let i = 0; i < COUNT; i++) {
      const inputs = await check(i, state[i].inputs);
      await diff(i, state[i].id, state[i].outs, inputs);
    }
    phase("preview");
    for (let i = 0; i < COUNT; i++) {
      const req = new provproto.ReadRequest();
      req.setUrn(urn(i));
      req.setId(state[i].id);
      req.setProperties(state[i].outs);
      req.setInputs(state[i].inputs);
      const read = await call("read", req);
      await diff(i, state[i].id, read.getProperties(), read.getInputs() ?? state[i].inputs);
    }
    phase("refresh");
    for (let i = 0; i < COUNT; i++) {
      const req = new provproto.DeleteRequest();
      req.setUrn(urn(i));
      req.setId(state[i].id);
      req.setProperties(state[i].outs);
      await call("delete", req);
    }
    phase("destroy");
    const stat = procStat(child.pid);
    client.close();
    return { toPortMs, ...stat, phases };
  } finally {
    // As the engine stops a plugin: SIGINT, then SIGKILL after 5 s (a profiled plugin writes on SIGINT).
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGINT");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }
}

(async () => {
  const emulator = await startEmulator({ port: 0 });
  const results = Object.fromEntries(positionals.map((l) => [l, []]));
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const launcher of positionals) {
        const r = await once(launcher, emulator, round);
        results[launcher].push(r);
        process.stderr.write(`[replay] ${launcher} #${round}: CPU ${r.cpuMs} ms (${Object.entries(r.phases).map(([k, v]) => `${k} ${v}`).join(", ")}), peak ${r.hwmMiB.toFixed(0)} MiB, port after ${r.toPortMs.toFixed(0)} ms\n`);
      }
    }
  } finally {
    await emulator.stop();
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const names = ["start", "up", "preview", "refresh", "destroy"];
  process.stdout.write(`| launcher | plugin CPU ms (median of ${ROUNDS}) | ${names.map((n) => `${n} ms`).join(" | ")} | peak RSS MiB | ms to port |\n|---|---:|${names.map(() => "---:|").join("")}---:|---:|\n`);
  for (const [l, rs] of Object.entries(results)) {
    const phases = names.map((n) => med(rs.map((r) => r.phases[n])));
    process.stdout.write(`| ${l} | ${med(rs.map((r) => r.cpuMs))} | ${phases.join(" | ")} | ${med(rs.map((r) => r.hwmMiB)).toFixed(0)} | ${med(rs.map((r) => r.toPortMs)).toFixed(0)} |\n`);
  }
})().catch((err) => {
  process.stderr.write(`plugin-replay: ${err.stack ?? err}\n`);
  process.exit(1);
});
