import { Script } from "node:vm";

/**
 * How a transform's job fails in the emulator: its implementation does not parse. JavaScript is
 * compiled (never run) by V8; Python and SQL, which the emulator cannot compile, must have
 * balanced brackets and quotes, and SQL must open with a statement keyword. The job reports
 * FAILED with the reason in words, as Flink reports a job that could not start.
 */

const CODE_FIELDS = ["value_transform", "key_transform", "topic_transform", "common_transform"];
const SQL_FIELDS = ["enrichSQL", "joinSQL", "rollupSQL", "createTableSQL"];
const SQL_START = /^\s*(select|with|insert|create|merge|update|delete)\b/i;

function unbalanced(text: string): string | undefined {
  const pairs: Record<string, string> = { ")": "(", "]": "[", "}": "{" };
  const stack: string[] = [];
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "(" || c === "[" || c === "{") stack.push(c);
    else if (pairs[c]) {
      if (stack.pop() !== pairs[c]) return `unexpected '${c}' at offset ${i}`;
    }
  }
  if (quote) return `unterminated string (${quote})`;
  if (stack.length > 0) return `'${stack[stack.length - 1]}' is never closed`;
  return undefined;
}

/** Every SQL text of an implementation (enrich, sql_join, rollup), with where it sits. */
function sqlTexts(value: unknown, at: string, out: Array<[string, string]>): void {
  if (Array.isArray(value)) value.forEach((v, i) => sqlTexts(v, `${at}[${i}]`, out));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (SQL_FIELDS.includes(k) && typeof v === "string") out.push([`${at}${at ? "." : ""}${k}`, v]);
      else sqlTexts(v, `${at}${at ? "." : ""}${k}`, out);
    }
  }
}

/** Why a job with this implementation fails to start, or undefined when it parses. */
export function parseFailure(type: string, implementation: Record<string, unknown>): string | undefined {
  if (type === "topic_router") return undefined;
  const language = String(implementation.language ?? "").toUpperCase();
  const code = CODE_FIELDS.filter((f) => typeof implementation[f] === "string").map((f) => [f, implementation[f] as string] as const);
  if (code.length > 0) {
    for (const [field, text] of code) {
      if (language === "PYTHON") {
        const problem = unbalanced(text);
        if (problem) return `SyntaxError in ${field}: ${problem}`;
        continue;
      }
      try {
        new Script(text, { filename: field });
      } catch (error) {
        return `${(error as Error).name} in ${field}: ${(error as Error).message}`;
      }
    }
    return undefined;
  }
  const sql: Array<[string, string]> = [];
  sqlTexts(implementation, "", sql);
  for (const [field, text] of sql) {
    if (!SQL_START.test(text)) return `SQL parse error in ${field}: expected a statement (SELECT, INSERT, CREATE, ...)`;
    const problem = unbalanced(text);
    if (problem) return `SQL parse error in ${field}: ${problem}`;
  }
  if (code.length === 0 && sql.length === 0) return "the implementation has no code: set value_transform (or the type's SQL)";
  return undefined;
}
