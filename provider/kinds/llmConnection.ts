import { z } from "zod";
import { LLM_PROVIDERS } from "../../catalogue/kind-values.js";
import { knowable } from "../check.js";
import { MASK } from "../normalize.js";
import { declareInputs } from "./inputs.js";
import { adoptInput, echo, list, nameInput } from "./shared.js";
import type { LlmConnection } from "../client/schemas.js";
import type { ImportContext } from "./imported.js";
import type { KindSpec } from "./spec.js";

const { properties: inputs, schema: inputSchema, replaceOnChange } = declareInputs({
  name: { ...nameInput("LLM connection"), replaceOnChange: true },
  provider: {
    type: "string",
    ts: { type: "LlmProvider" },
    replaceOnChange: true,
    description: `The model's provider: ${list(LLM_PROVIDERS)}.`,
    check: knowable(z.enum(LLM_PROVIDERS, { error: `must be one of ${LLM_PROVIDERS.join(", ")}` })),
  },
  model: {
    type: "string",
    replaceOnChange: true,
    description: "The model's name, e.g. `gpt-4o`.",
    check: knowable(z.string({ error: "is required: the model name, e.g. gpt-4o" }).min(1, { error: "must not be empty: the model name, e.g. gpt-4o" })),
  },
  apiKey: {
    type: "string",
    secret: true,
    replaceOnChange: true,
    description: "The provider's API key: a secret, stored encrypted by the API and never shown again (the stack keeps only a keyed digest of it).",
    check: knowable(
      z
        .string({ error: "is required: the provider's API key (pass it as a secret, e.g. config.requireSecret(...))" })
        .min(1, { error: "must not be empty" })
        .refine((v) => v !== MASK, { error: `"${MASK}" is the API's mask, not a key: set the real API key` }),
    ),
  },
  baseUrl: {
    type: "string",
    replaceOnChange: true,
    description: "The absolute http(s) URL of the provider's API, for a self-hosted or regional endpoint. Unset: the provider's default.",
    check: knowable(z.string().refine((u) => /^https?:\/\/[^/]/.test(u), { error: "must be an absolute http or https URL" })).optional(),
  },
  adoptId: adoptInput("LLM connection", "the API cannot update one, so it must already equal the program (its API key, never shown, is taken to be the program's)."),
});

export const LLM_CONNECTION = {
  name: "LlmConnection",
  token: "cdc:index:LlmConnection",
  noun: "LLM connection",
  plural: "LLM connections",
  report: "llm_connection",
  internal: ["logicalName", "apiKeyDigest", "secretSalt"],
  imported: {
    flag: "llm-connections",
    suffix: "LlmConnection",
    order: 1,
    section: "LLM connections (the API key is read from config: the API never shows it)",
    objects: (listed: readonly LlmConnection[]) => listed.map((l) => ({ id: l.connection_id, name: l.name ?? "", tagIds: [], live: l })),
    inputs: (l: LlmConnection, ctx: ImportContext) => ({
      provider: l.provider ?? "",
      model: l.model ?? "",
      apiKey: ctx.secret("apiKey", "API key"),
      baseUrl: l.base_url || undefined,
    }),
  },
  description:
    "A connection to a language model. The API cannot update one, so any change replaces it: the replacement is created first, the agents of the stack that use it are repointed, then the old one is deleted.",
  inputs,
  inputSchema,
  replaceOnChange,
  outputs: [
    ...echo(
      inputs.filter((p) => p.name !== "apiKey"),
      ["name", "provider", "model"],
    ),
    { name: "createdFrom", type: "string", required: true, from: { field: "created_from", absent: "" }, description: "How the connection was created, as the API records it (`created_from`)." },
  ],
} satisfies KindSpec<"LlmConnection">;
