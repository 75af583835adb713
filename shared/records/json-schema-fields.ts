/**
 * Field lists that give a payload both its JSON Schema (draft-07, AsyncAPI 3.0's default schema format) and its
 * TypeScript type, so a contract is written once and the compiler refuses a payload that differs from its schema.
 * Used by the published NATS contract (published-events.ts) and the public events (shared/events/event-types.ts).
 */

/** A JSON Schema (draft-07). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** A JSON Schema and, for the compiler only, the type of the values it accepts. */
export interface Field<T> {
  readonly schema: JsonSchema;
  /** never set: carries `T` */
  readonly value?: T;
}

export type Fields = Record<string, Field<unknown>>;
type ValueOf<F> = F extends Field<infer T> ? T : never;
/** The payload type a field list describes: every field present. */
export type PayloadOf<F extends Fields> = { [K in keyof F]: ValueOf<F[K]> };

export const field = <T>(schema: JsonSchema): Field<T> => ({ schema });

/** An object of these fields, every one required (more may be added later: readers ignore those they do not know). */
export const objectSchema = (fields: Fields, extra: JsonSchema = {}): JsonSchema => ({
  ...extra,
  type: "object",
  required: Object.keys(fields),
  properties: Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, f.schema])),
});

/** A field whose value is an object of these fields. */
export const objectField = <F extends Fields>(fields: F, description: string): Field<PayloadOf<F>> =>
  field(objectSchema(fields, { description }));

/** A field that may also be null. */
export const nullable = <T>(f: Field<T>): Field<T | null> => field({ anyOf: [f.schema, { type: "null" }] });
