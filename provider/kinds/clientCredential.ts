import { z } from "zod";
import { knowable } from "../check.js";
import { declareInputs } from "./inputs.js";
import { echo, STRINGS } from "./shared.js";
import type { KindSpec } from "./spec.js";
import type { KindTerraform } from "./terraform.js";

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
});

export const CLIENT_CREDENTIAL = {
  name: "ClientCredential",
  token: "cdc:index:ClientCredential",
  noun: "client credential",
  plural: "client credentials",
  report: "client_credential",
  imported: { flag: "client-credentials", suffix: "ClientCredential", order: 11, listedOnly: true },
  terraform: {
    types: ["streamkap_client_credential"],
    attributes: {
      id: "the client id (the credential's id)",
      client_id: "clientId",
      role_ids: "roleIds",
      description: "description",
      service_id: "serviceId",
      secret: "secret (a secret: the state keeps the one shown at creation)",
      roles: "(read back: roleKeys)",
      created_at: "(read back: createdAt)",
    },
    notAdopted:
      "pulumi-cdc's ClientCredential cannot adopt an existing credential (it has no adoptId), as `pulumi-cdc import` lists credentials without adopting them: keep it in Terraform, or create a ClientCredential and move its users to the new secret",
    live: () => undefined,
  } satisfies KindTerraform,
  description:
    "An API client credential for a downstream service. Its roles and description change in place (the client id and secret stay); a new service id replaces it, with a new secret. The API shows the secret only at creation: it is a Pulumi secret.",
  inputs,
  inputSchema,
  replaceOnChange,
  outputs: [
    ...echo(inputs, ["roleIds"]),
    { name: "clientId", type: "string", required: true, description: "The credential's client id, exchanged with the secret for an access token." },
    {
      name: "secret",
      type: "string",
      secret: true,
      // The TypeScript class has always typed it present; kept so, for the programs that rely on it.
      ts: { output: "string" },
      description: "The credential's secret, returned by the API at creation only: a Pulumi secret, encrypted in the stack. Absent for a credential Pulumi imported or adopted: the API showed its secret once, to its creator.",
    },
    { name: "roleKeys", type: STRINGS, required: true, description: "The keys of the credential's roles." },
    { name: "createdAt", type: "string", required: true, description: "When the credential was created, as the API reports it." },
  ],
} satisfies KindSpec<"ClientCredential">;
