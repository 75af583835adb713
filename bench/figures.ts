/** What the benches share to read their sizes and to write their figures. */

/** A size read from the environment (`LOG_BENCH_ENTRIES=…`), else `fallback`. */
export function envNumber(name: string, fallback: number): number {
  const v = process.env[name];
  return v === undefined || v === "" ? fallback : Number(v);
}

/** Rounded to 0.01: a ratio as the report prints it. */
export const round2 = (x: number): number => Math.round(x * 100) / 100;

/** A count with thousands separators: 10,003,000. */
export const thousands = (x: number): string => Math.round(x).toLocaleString("en");
