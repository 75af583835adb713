// JSON with native bigints, via the same library (and options) the Ogmios client parses with, so lovelace and
// asset quantities travel as bare JSON numbers and never lose precision.
interface BigintJson {
  parse(text: string): unknown;
  stringify(value: unknown): string;
}
// The package ships no type declarations; this is its documented factory signature.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const factory = require("@cardanosolutions/json-bigint") as (options: { useNativeBigInt: boolean }) => BigintJson;

/** Parser/serialiser: integers beyond 2^53 parse as bigint, bigints serialise as bare numbers. */
export const bigintJson: BigintJson = factory({ useNativeBigInt: true });
