#!/usr/bin/env node
// Seeds a small tenant "as a person in the web console": every write is stamped
// created_from: "web", so nothing here belongs to Pulumi until `pulumi up` adopts it.
//
//   CDC_API_URL=... CDC_CLIENT_ID=... CDC_CLIENT_SECRET=... node seed.mjs [prefix]
//
// Makes a tag, a PostgreSQL source, a Snowflake destination and a pipeline between them,
// all named <prefix>-* (default "acme"), and prints what it made.

const api = process.env.CDC_API_URL;
const clientId = process.env.CDC_CLIENT_ID;
const clientSecret = process.env.CDC_CLIENT_SECRET;
const prefix = process.argv[2] ?? "acme";
if (!api || !clientId || !clientSecret) {
  console.error("seed.mjs: set CDC_API_URL, CDC_CLIENT_ID and CDC_CLIENT_SECRET");
  process.exit(2);
}

async function call(method, path, body, token) {
  const response = await fetch(new URL(path, api.endsWith("/") ? api : `${api}/`), {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

const { accessToken } = await call("POST", "auth/access-token", { client_id: clientId, secret: clientSecret });
const web = (method, path, body) => call(method, path, { ...body, created_from: "web" }, accessToken);

const tag = await web("POST", "tags", { name: `${prefix}-pii`, description: "Carries personal data", type: ["sources", "destinations", "pipelines"] });
const source = await web("POST", "sources?wait=false", {
  name: `${prefix}-orders`,
  connector: "postgresql",
  config: {
    "database.hostname.user.defined": "orders-db.internal",
    "database.port.user.defined": 5432,
    "database.user": "cdc",
    "database.password": "typed-into-the-console",
    "database.dbname": "shop",
    "schema.include.list": "public",
    "table.include.list.user.defined": "public.orders,public.customers",
  },
  tags: [tag.id],
});
const destination = await web("POST", "destinations?wait=false", {
  name: `${prefix}-warehouse`,
  connector: "snowflake",
  config: {
    "snowflake.url.name": "acme.snowflakecomputing.com",
    "snowflake.user.name": "LOADER",
    "snowflake.private.key": "pasted-into-the-console",
    "snowflake.database.name": "ANALYTICS",
    "snowflake.schema.name": "RAW",
  },
  tags: [tag.id],
});
const ref = (c) => ({ id: c.id, name: c.name, connector: c.connector });
const pipeline = await web("POST", "pipelines?wait=false", {
  name: `${prefix}-orders-to-warehouse`,
  source: { ...ref(source), topics: ["public.orders", "public.customers"] },
  destination: ref(destination),
  tags: [tag.id],
});

console.log(`seeded (created_from "web"): tag ${tag.name} (${tag.id}), source ${source.name} (${source.id}), destination ${destination.name} (${destination.id}), pipeline ${pipeline.name} (${pipeline.id})`);
