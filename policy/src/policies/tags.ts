import type { PolicyResource } from "@pulumi/policy";
import { cdcResource } from "pulumi-cdc/policy-support";
import { inputsOf } from "../inputs.js";
import { known } from "../values.js";

/**
 * The tags a source, destination or pipeline carries, as a policy can tell them in a preview: the
 * `Tag` resources of the stack its `tags` refer to (by their names), and tag ids written as they
 * are (by id).
 */
export function tagsOf(r: PolicyResource): { names: string[]; ids: string[] } {
  const names = (r.propertyDependencies?.tags ?? []).flatMap((t) => {
    const tag = cdcResource(t.type, inputsOf(t));
    if (tag?.kind !== "Tag") return [];
    const name = tag.props.name;
    return [typeof name === "string" && known(name) ? name : t.name];
  });
  const tags = inputsOf(r).tags;
  const ids = Array.isArray(tags) ? tags.filter((t): t is string => typeof t === "string" && known(t)) : [];
  return { names, ids };
}
