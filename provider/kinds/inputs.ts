import { z } from "zod";
import type { PropertySpec } from "./spec.js";

/**
 * One input of a kind, declared once: what the schema says of it (type, secret, replace-on-change,
 * description) and how the core checks a value the program sets (`check`, a zod schema whose
 * messages name the fix). Whether the program must set it is the check's own answer: an input is
 * required when its check refuses `undefined`.
 */
export type InputSpec = Omit<PropertySpec, "name" | "required"> & { check: z.ZodType };

/** The inputs of a kind, by name, in the order the schema lists them. */
export type InputSpecs = Record<string, InputSpec>;

/** The zod shape of a kind's inputs: each input's check, and `logicalName`, the resource's name, which both hosts add. */
type Shape<I extends InputSpecs> = { logicalName: z.ZodOptional<z.ZodString> } & { [K in keyof I]: I[K]["check"] };

/** The names of the inputs whose change replaces the object. */
type Replacing<I extends InputSpecs> = { [K in keyof I]: I[K] extends { replaceOnChange: true } ? K : never }[keyof I] & string;

/**
 * A kind's inputs as the schema lists them (`properties`), the core's input check (`schema`), and
 * the inputs whose change replaces the object (`replaceOnChange`), all from the one declaration of
 * each input.
 */
export function declareInputs<const I extends InputSpecs>(inputs: I): { properties: PropertySpec[]; schema: z.ZodObject<Shape<I>>; replaceOnChange: readonly Replacing<I>[] } {
  const properties = Object.entries(inputs).map(([name, { check, ...spec }]): PropertySpec => {
    const required = !check.safeParse(undefined).success;
    return { name, ...spec, ...(required ? { required: true } : {}) };
  });
  const shape = { logicalName: z.string().optional(), ...Object.fromEntries(Object.entries(inputs).map(([name, spec]) => [name, spec.check])) };
  const replaceOnChange = properties.filter((p) => p.replaceOnChange).map((p) => p.name as Replacing<I>);
  return { properties, schema: z.object(shape) as unknown as z.ZodObject<Shape<I>>, replaceOnChange };
}
