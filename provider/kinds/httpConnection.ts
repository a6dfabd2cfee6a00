import { z } from "zod";
import { knowable } from "../check.js";
import { MASK } from "../normalize.js";
import { declareInputs } from "./inputs.js";
import { adoptInput, echo, nameInput, STRINGS } from "./shared.js";
import type { HttpConnection } from "../client/schemas.js";
import type { ImportContext } from "./imported.js";
import type { KindSpec } from "./spec.js";

/** An HTTP header's name: a token (RFC 9110). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const { properties: inputs, schema: inputSchema, replaceOnChange } = declareInputs({
  name: nameInput("HTTP connection"),
  url: {
    type: "string",
    description: "The absolute http(s) URL the agent calls, e.g. `https://tickets.example.com/api/v2`. Changed outside Pulumi, it is drift.",
    check: knowable(
      z.string({ error: "is required: the absolute http(s) URL the agent calls" }).refine((u) => /^https?:\/\/[^/]/.test(u), {
        error: "must be an absolute http or https URL, e.g. https://api.example.com",
      }),
    ),
  },
  headers: {
    type: { mapOf: "string" },
    secret: true,
    description:
      "Headers sent with each call, name to value. The values are secrets: encrypted in the stack, sent to the API once and never read back (the API masks them). " +
      "An update sends only the values that changed; a header removed from the program is removed. Header names must be HTTP tokens.",
    check: z
      .record(
        z.string().regex(HEADER_NAME, { error: "header names must be HTTP tokens (letters, digits and !#$%&'*+.^_`|~-)" }),
        z.string({ error: "header values must be strings" }).refine((v) => v !== MASK, { error: `"${MASK}" is the API's mask, not a value: set the real header value` }),
      )
      .optional(),
  },
  adoptId: adoptInput("HTTP connection", "otherwise one update sets its name, url and header names. A header it has is taken to hold the program's value (the API never shows one)."),
});

export const HTTP_CONNECTION = {
  name: "HttpConnection",
  token: "cdc:index:HttpConnection",
  noun: "HTTP connection",
  plural: "HTTP connections",
  report: "http_connection",
  internal: ["logicalName", "headerDigests", "secretSalt"],
  imported: {
    flag: "http-connections",
    suffix: "HttpConnection",
    order: 2,
    section: "HTTP connections (header values are read from config: the API never shows them)",
    objects: (listed: readonly HttpConnection[]) => listed.map((h) => ({ id: h.connection_id, name: h.name ?? "", tagIds: [], live: h })),
    inputs: (h: HttpConnection, ctx: ImportContext) => {
      const names = Object.keys(h.headers).sort();
      return { url: h.url ?? "", headers: names.length > 0 ? Object.fromEntries(names.map((n) => [n, ctx.secret(`header ${n}`, `header ${n}`)])) : undefined };
    },
  },
  description:
    "An HTTP endpoint an agent may call. Header values are secrets: encrypted in the stack, sent to the API once and never read back; a header added or removed, or the URL changed, outside Pulumi is drift.",
  inputs,
  inputSchema,
  replaceOnChange,
  outputs: [
    ...echo(
      inputs.filter((p) => p.name !== "headers"),
      ["name", "url"],
    ),
    { name: "headerNames", type: STRINGS, required: true, description: "The names of the headers the API holds. Their values are never read back, nor kept in the outputs." },
    { name: "createdFrom", type: "string", required: true, from: { field: "created_from", absent: "" }, description: "How the connection was created, as the API records it (`created_from`)." },
  ],
} satisfies KindSpec<"HttpConnection">;
