/**
 * What a create refused with 409 (the name is taken) tells the user to do. Shared by the kinds
 * whose names are unique and that `pulumi-cdc recover` knows (sources, destinations, tags).
 */

/** The object found under the create's name, as far as the message needs it. */
export interface NameHolder {
  id?: string | null;
  name?: string | null;
  created_from?: string | null;
}

/**
 * The stack to name in `pulumi-cdc recover --stack`: the engine does not tell a provider which
 * stack it runs for, so only PULUMI_STACK (when the run was given its stack that way) says it.
 */
export function stackForHint(env: NodeJS.ProcessEnv = process.env): string {
  const stack = env.PULUMI_STACK?.trim();
  return stack ? stack : "<your stack>";
}

/**
 * The sentences after the API's 409: choose another name, or adopt the object (by its id when
 * it was found); and when that object carries this IaC tool's `created_from` and the create's
 * own name, it may be the one an interrupted `pulumi up` created and never recorded: then
 * `pulumi-cdc recover` takes it into the stack.
 */
export function nameTakenHint(opts: { noun: string; name: string; createdFrom: string; existing: NameHolder | undefined; env?: NodeJS.ProcessEnv }): string {
  const { existing } = opts;
  const adopt = existing?.id ? `, or take it over with adoptId: "${existing.id}"` : ", or take it over with adoptId";
  let text = `${opts.noun} names are unique: choose another name${adopt}.`;
  if (existing && existing.name === opts.name && existing.created_from === opts.createdFrom) {
    text +=
      ` It was created by an IaC tool (created_from "${existing.created_from}") under this very name: if a \`pulumi up\` was interrupted, ` +
      `it may have created it without recording it; run \`npx pulumi-cdc recover --stack ${stackForHint(opts.env)}\` to take it into the stack.`;
  }
  return text;
}
