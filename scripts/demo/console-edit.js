#!/usr/bin/env node
// Changes a destination's config out of band, the way a person in the platform's web console
// would: read the destination, edit one or more fields, save the whole form back. The API
// returns secret values masked, and the console sends the mask (`********`) back unchanged,
// which tells the API to keep the stored secret. Pulumi is not involved, so the next
// `pulumi preview` has to notice the change on its own (drift).
//
//   node scripts/demo/console-edit.js --destination <id> --set key=value [--set key=value ...]
//
// Connection: CDC_API_URL, CDC_CLIENT_ID, CDC_CLIENT_SECRET (the same variables the provider
// falls back to). Uses the package's own REST client from dist/ (run `npm run build` first).
"use strict";

const path = require("node:path");
const { parseArgs } = require("node:util");

const MASK = "********";

function usage(message) {
  if (message) process.stderr.write(`console-edit: ${message}\n`);
  process.stderr.write("usage: console-edit.js --destination <id> --set key=value [--set key=value ...]\n");
  process.exit(2);
}

async function main() {
  const { values } = parseArgs({
    options: {
      destination: { type: "string" },
      set: { type: "string", multiple: true },
    },
    strict: true,
  });
  if (!values.destination) usage("--destination is required");
  if (!values.set || values.set.length === 0) usage("at least one --set key=value is required");
  const edits = values.set.map((pair) => {
    const eq = pair.indexOf("=");
    if (eq <= 0) usage(`--set expects key=value, got '${pair}'`);
    return [pair.slice(0, eq), pair.slice(eq + 1)];
  });

  const client = require(path.join(__dirname, "..", "..", "dist", "provider", "client", "index.js"));
  // Same resolution as the provider (CDC_* environment variables), so a missing setting gets
  // the same clear message.
  const settings = client.resolveSettings(undefined, process.env);
  const api = new client.CdcClient({ settings });
  try {
    const id = values.destination;
    const envelope = await api.get("/destinations/{id}", { params: { id }, schema: client.destinationEnvelopeSchema });
    const current = envelope.result[0];
    if (!current) throw new Error(`destination '${id}' not found`);

    // The form as the console shows it: every value as the API echoes it, secrets masked.
    const config = { ...(current.config ?? {}) };
    for (const [key, value] of edits) {
      if (config[key] === MASK) throw new Error(`'${key}' is a secret; this demo edits only visible fields`);
      const before = config[key] === undefined ? "(unset)" : String(config[key]);
      process.stdout.write(`  ${current.name}: ${key}: ${before} -> ${value}\n`);
      config[key] = value;
    }
    const maskedKeys = Object.keys(config).filter((k) => config[k] === MASK);
    if (maskedKeys.length > 0) process.stdout.write(`  secrets sent back masked (kept by the API): ${maskedKeys.join(", ")}\n`);

    await api.put("/destinations/{id}", {
      params: { id },
      body: { name: current.name, connector: current.connector, config },
      schema: client.destinationConnectorSchema,
    });
    process.stdout.write(`  saved destination ${id} outside Pulumi\n`);
  } finally {
    await api.close();
  }
}

main().catch((error) => {
  process.stderr.write(`console-edit: ${error && error.message ? error.message : String(error)}\n`);
  process.exit(1);
});
