/**
 * The building blocks of the CIP-57 schemas (onchain/blueprint-schema*.ts): references into the definitions,
 * named fields, constructors and enums, and the shape of a validator's entry. Pure data, no plu-ts.
 */
export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/definitions/${name}` });

export const field = (title: string, name: string, description?: string): Schema => ({
  title,
  ...(description ? { description } : {}),
  ...ref(name),
});

export const constr = (title: string, index: number, fields: Schema[]): Schema => ({ title, dataType: "constructor", index, fields });

export const enumOf = (title: string, names: readonly string[]): Schema => ({ title, anyOf: names.map((n, i) => constr(n, i, [])) });

export interface HandlerEntry {
  readonly title: string;
  readonly description: string;
  readonly datum?: Schema;
  readonly redeemer: Schema;
}

export interface ValidatorEntrySpec {
  readonly parameters: Schema[];
  readonly handlers: HandlerEntry[];
}
