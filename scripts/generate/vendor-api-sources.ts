/**
 * The API-source contract of one of the vendor's generated files (internal/generated/source_<code>.go
 * of an API source: `var Source<X>APISource = APISource{Code, DisplayName, Conditions, Dependencies,
 * OAuth}`), read into catalogue/api-sources.json's fields. Its keys come from the same schema and
 * FieldMappings as every connector's (vendor-generated.ts).
 */

/** A Go composite-literal value as far as tfgen writes them: strings, booleans, numbers, lists and structs. */
type GoValue = string | boolean | number | GoValue[] | { [field: string]: GoValue } | null;

export interface ApiContract {
  readonly code: string;
  readonly displayName: string;
  readonly conditions: Array<{ field: string; when: { key: string; values: string[]; default?: string }; required: boolean }>;
  readonly dependencies: Array<{ field: string; requires: string[] }>;
  /** The Connect flow, when enabled; `connect` only when the file names the command. */
  readonly oauth?: { modeKey?: string; modeValue?: string; modeDefault?: string; connect?: string; hostKey?: string };
}

/** Whether the file holds an API-source contract. */
export function isApiSourceFile(text: string): boolean {
  return /^var \w+APISource = APISource\{/m.test(text);
}

export function parseApiContract(text: string): ApiContract {
  const m = /^var \w+APISource = APISource\{/m.exec(text);
  if (!m) throw new Error("no APISource contract");
  const { value } = literal(text, m.index + m[0].length - "APISource{".length);
  const c = value as Record<string, GoValue>;
  const str = (v: GoValue | undefined) => (typeof v === "string" ? v : undefined);
  const list = (v: GoValue | undefined) => (Array.isArray(v) ? v : []);
  const code = str(c["Code"]);
  const displayName = str(c["DisplayName"]);
  if (!code || !displayName) throw new Error("APISource lacks Code or DisplayName");
  const conditions = list(c["Conditions"]).map((raw) => {
    const x = raw as Record<string, GoValue>;
    const def = str(x["ConditionDefault"]);
    return {
      field: str(x["Field"])!,
      when: { key: str(x["ConditionField"])!, values: list(x["ConditionValues"]) as string[], ...(def ? { default: def } : {}) },
      required: x["Required"] === true,
    };
  });
  const dependencies = list(c["Dependencies"]).map((raw) => {
    const x = raw as Record<string, GoValue>;
    return { field: str(x["Field"])!, requires: list(x["Requires"]) as string[] };
  });
  const o = c["OAuth"] as Record<string, GoValue> | undefined;
  let oauth: ApiContract["oauth"];
  if (o && o["Enabled"] === true) {
    const mode = str(o["AuthModeField"]);
    const modeDefault = str(o["AuthModeDefault"]);
    const connect = connectCommand(str(o["ConnectCommand"]));
    const host = str(o["HostField"]);
    oauth = {
      ...(mode ? { modeKey: mode, modeValue: str(o["AuthModeValue"])!, ...(modeDefault ? { modeDefault } : {}) } : {}),
      ...(connect ? { connect } : {}),
      ...(host ? { hostKey: host } : {}),
    };
  }
  return { code, displayName, conditions, dependencies, ...(oauth ? { oauth } : {}) };
}

/**
 * The command of a ConnectCommand, for error messages: "`cmd`, what it needs" reads
 * "cmd (what it needs)"; an empty one is none.
 */
function connectCommand(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const m = /^`([^`]+)`(?:,\s*(.+))?$/.exec(text.trim());
  if (!m) return text.trim();
  return m[2] ? `${m[1]} (${m[2]})` : m[1];
}

/** The literal starting at `at` (a type name, then `{`; or a string, bool, number); its value and where it ends. */
function literal(text: string, at: number): { value: GoValue; end: number } {
  let i = skip(text, at);
  const c = text[i];
  if (c === '"') {
    const end = stringEnd(text, i);
    return { value: JSON.parse(text.slice(i, end + 1)) as string, end: end + 1 };
  }
  if (c === "`") {
    const end = text.indexOf("`", i + 1);
    return { value: text.slice(i + 1, end), end: end + 1 };
  }
  const word = /^[\w.[\]*]*/.exec(text.slice(i))![0];
  if (word === "true" || word === "false") return { value: word === "true", end: i + word.length };
  if (word === "nil") return { value: null, end: i + word.length };
  if (/^-?\d+$/.test(word)) return { value: Number(word), end: i + word.length };
  i = skip(text, i + word.length);
  if (text[i] !== "{") {
    // A function value (`Schema: SourceHubspotSchema`, `NewModel: func() any {...}`): not a fact.
    return { value: null, end: skipValue(text, at) };
  }
  return word.startsWith("[]") ? elements(text, i) : struct(text, i);
}

function struct(text: string, open: number): { value: GoValue; end: number } {
  const out: Record<string, GoValue> = {};
  let i = skip(text, open + 1);
  while (text[i] !== "}") {
    const name = /^(\w+):/.exec(text.slice(i));
    if (!name) throw new Error(`unexpected ${JSON.stringify(text.slice(i, i + 30))} in a struct literal`);
    i = i + name[0].length;
    const { value, end } = literal(text, i);
    out[name[1]!] = value;
    i = skip(text, end);
    if (text[i] === ",") i = skip(text, i + 1);
  }
  return { value: out, end: i + 1 };
}

function elements(text: string, open: number): { value: GoValue; end: number } {
  const out: GoValue[] = [];
  let i = skip(text, open + 1);
  while (text[i] !== "}") {
    // Elements of a slice of structs omit their type: `{Field: ...}`.
    const { value, end } = text[i] === "{" ? struct(text, i) : literal(text, i);
    out.push(value);
    i = skip(text, end);
    if (text[i] === ",") i = skip(text, i + 1);
  }
  return { value: out, end: i + 1 };
}

/** Past a value this reader does not take apart (a function name or literal), to the comma or brace that ends it. */
function skipValue(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = stringEnd(text, i);
    else if (c === "`") i = text.indexOf("`", i + 1);
    else if (c === "{" || c === "(") depth++;
    else if (c === "}" || c === ")") {
      if (depth === 0) return i;
      depth--;
    } else if (c === "," && depth === 0) return i;
  }
  return text.length;
}

function skip(text: string, i: number): number {
  while (i < text.length) {
    if (/\s/.test(text[i]!)) i++;
    else if (text.startsWith("//", i)) i = text.indexOf("\n", i) < 0 ? text.length : text.indexOf("\n", i);
    else break;
  }
  return i;
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  throw new Error(`unterminated string at offset ${start}`);
}
