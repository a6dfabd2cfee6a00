import type { PolicyResource, ResourceValidationPolicy } from "@pulumi/policy";
import { raw, type Props } from "./values.js";

/**
 * Each resource's inputs, by URN, as the engine's per-resource analysis hands them: a stack policy
 * sees the planned outputs instead, where a preview leaves every setting the program did not set
 * unknown (a typed source's `slotName` left at the platform's default, say). The engine analyzes
 * each resource before the stack, in this process.
 */
const inputs = new Map<string, Props>();

/** A resource policy that also records the inputs of each resource it is asked about. */
export function recordingInputs(policy: ResourceValidationPolicy): ResourceValidationPolicy {
  const validate = policy.validateResource;
  if (typeof validate !== "function") return policy;
  return {
    ...policy,
    validateResource: (args, report) => {
      inputs.set(args.urn, raw(args.props));
      return validate(args, report);
    },
  };
}

/** A stack policy's resource's inputs when the per-resource analysis saw them, else its properties. */
export function inputsOf(r: PolicyResource): Props {
  return inputs.get(r.urn) ?? raw(r.props);
}
