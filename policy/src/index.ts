import { PolicyPack } from "@pulumi/policy";
import { recordingInputs } from "./inputs.js";
import { adminCredentials } from "./policies/admin-credentials.js";
import { environmentTags } from "./policies/environment-tags.js";
import { hardDelete } from "./policies/hard-delete.js";
import { plainSecrets } from "./policies/plain-secrets.js";
import { requiredTags } from "./policies/required-tags.js";
import { sharedReplication } from "./policies/shared-replication.js";
import { wildcardIncludes } from "./policies/wildcard-includes.js";

/**
 * pulumi-cdc's policy pack (docs/policies.md): `pulumi preview --policy-pack <this folder>`. It
 * reads the resources of both hosts (the TypeScript dynamic classes, the plugin's `cdc:index:*`
 * and its typed `cdc:sources:*` / `cdc:destinations:*`) through pulumi-cdc's own kind registry
 * and catalogue (`pulumi-cdc/policy-support`).
 */
// The resource policies record each resource's inputs for the stack policies (inputs.ts).
export const POLICIES = [sharedReplication, recordingInputs(plainSecrets), recordingInputs(adminCredentials), recordingInputs(wildcardIncludes), environmentTags, requiredTags, recordingInputs(hardDelete)];

new PolicyPack("pulumi-cdc", { policies: POLICIES });
