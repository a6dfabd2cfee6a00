import { z } from "zod";
import { knowable } from "../check.js";
import { MASK } from "../normalize.js";
import type { ClientCredential } from "../client/schemas.js";
import type { ImportContext } from "./imported.js";
import { declareInputs } from "./inputs.js";
import { adoptCheck, echo, STRINGS } from "./shared.js";
import type { KindSpec } from "./spec.js";
import { tfString, tfStrings, type KindTerraform } from "./terraform.js";

/** The longest description the API keeps. */
const DESCRIPTION_MAX = 1024;

const { properties: inputs, schema: inputSchema, replaceOnChange } = declareInputs({
  roleIds: {
    type: STRINGS,
    description: "The ids of the roles the credential is bound to, at least one (`getRoles` lists them). Changed in place: the client id and the secret stay.",
    check: z
      .array(knowable(z.string().min(1, { error: "must not be empty" })), {
        error: "is required: a list of role ids, e.g. [\"viewer\"] (see GET /auth/roles)",
      })
      .min(1, { error: "needs at least one role id: a credential is bound to one or more roles" }),
  },
  description: {
    type: "string",
    description: `What the credential is for, at most ${DESCRIPTION_MAX} characters. Changed in place. Once set it cannot be cleared (the API keeps it): removing it from the program leaves it as it is, with no diff.`,
    check: z.string({ error: "must be a string" }).max(DESCRIPTION_MAX, { error: `must be at most ${DESCRIPTION_MAX} characters` }).optional(),
  },
  serviceId: {
    type: "string",
    replaceOnChange: true,
    description: "The id of the service the credential belongs to. Unset: none. Changing it replaces the credential, with a new secret.",
    check: knowable(z.string().min(1, { error: "must not be empty: leave it unset for no service" })).optional(),
  },
  adoptId: {
    type: "string",
    check: adoptCheck("client credential"),
    description:
      "The client id of an existing credential to take over instead of creating one: `pulumi up` reads it and writes nothing when its roles and description already equal the program's; otherwise one update makes them match. Its service must equal `serviceId` (a credential's service cannot change).",
  },
  secret: {
    type: "string",
    secret: true,
    description:
      "Only with `adoptId`: the adopted credential's secret, as it was shown to whoever created it (a Terraform state keeps it). The API never shows a secret again, so it is taken as given, and becomes the `secret` output. Unset: the adopted credential's `secret` output is absent.",
    check: knowable(
      z
        .string({ error: "must be the credential's secret, as a string (pass it as a secret, e.g. config.requireSecret(...))" })
        .min(1, { error: "must not be empty: leave it unset when the secret is not known" })
        .refine((v) => v !== MASK, { error: `"${MASK}" is a placeholder, not a secret: set the credential's real secret, or leave it unset` }),
    ).optional(),
  },
});

/** The roles as the API lists them, from their ids (a Terraform state holds the ids it sent). */
const rolesOf = (ids: readonly string[]) => ids.map((id) => ({ id }));

export const CLIENT_CREDENTIAL = {
  name: "ClientCredential",
  token: "cdc:index:ClientCredential",
  noun: "client credential",
  plural: "client credentials",
  report: "client_credential",
  imported: {
    flag: "client-credentials",
    suffix: "ClientCredential",
    order: 11,
    section: "Client credentials (the secret is read from config: the API shows it only at creation)",
    objects: (listed: readonly ClientCredential[]) => listed.map((c) => ({ id: c.client_id, name: c.description || c.client_id, tagIds: [], live: c })),
    // Adopted only where the import's source holds the secret (a Terraform state): from the API,
    // whose listing never shows one, a credential is listed in a comment instead (cli/import/).
    inputs: (c: ClientCredential, ctx: ImportContext) => {
      const secret = ctx.heldSecret("secret", "secret");
      if (!secret) return undefined;
      return {
        roleIds: c.roles.map((r) => r.id).sort(),
        description: c.description || undefined,
        serviceId: c.service_id || undefined,
        secret,
      };
    },
  },
  terraform: {
    types: ["streamkap_client_credential"],
    attributes: {
      id: "the client id (the credential's id)",
      client_id: "adoptId: the credential is adopted, with no write when it matches",
      role_ids: "roleIds",
      description: "description",
      service_id: "serviceId",
      secret: "secret, set in the stack's config as a secret (the state keeps the one shown at creation; without it the credential is listed, not adopted)",
      roles: "(read back: roleKeys)",
      created_at: "(read back: createdAt)",
    },
    live: (a) => {
      const clientId = tfString(a, "client_id") ?? tfString(a, "id");
      if (!clientId) return undefined;
      const secret = tfString(a, "secret");
      return {
        id: clientId,
        live: { client_id: clientId, roles: rolesOf(tfStrings(a, "role_ids")), description: tfString(a, "description") ?? null, service_id: tfString(a, "service_id") ?? null },
        ...(secret ? { secrets: { secret } } : {}),
      };
    },
  } satisfies KindTerraform,
  description:
    "An API client credential for a downstream service. Its roles and description change in place (the client id and secret stay); a new service id replaces it, with a new secret. The API shows the secret only at creation: it is a Pulumi secret.",
  inputs,
  inputSchema,
  replaceOnChange,
  outputs: [
    ...echo(
      inputs.filter((p) => p.name !== "secret"),
      ["roleIds"],
    ),
    { name: "clientId", type: "string", required: true, description: "The credential's client id, exchanged with the secret for an access token." },
    {
      name: "secret",
      type: "string",
      secret: true,
      // The TypeScript class has always typed it present; kept so, for the programs that rely on it.
      ts: { output: "string" },
      description: "The credential's secret, returned by the API at creation only: a Pulumi secret, encrypted in the stack. Absent for a credential Pulumi imported, or adopted without its `secret`: the API showed its secret once, to its creator.",
    },
    { name: "roleKeys", type: STRINGS, required: true, description: "The keys of the credential's roles." },
    { name: "createdAt", type: "string", required: true, description: "When the credential was created, as the API reports it." },
  ],
} satisfies KindSpec<"ClientCredential">;
