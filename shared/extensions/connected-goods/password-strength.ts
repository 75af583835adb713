/**
 * The strength rule for claiming passwords at mint (docs/connected-goods.md#claiming-passwords). The item key's
 * hash is on chain, so anyone can test guesses offline at scrypt's pace; a password is only as safe as it is hard
 * to guess. The estimate, meant to be checked by hand:
 *
 *   bits = (characters that count) × log2(pool)
 *
 * - pool: the sum of the sizes of the character classes the password uses: a–z 26, A–Z 26, 0–9 10, the other
 *   printable ASCII characters and space 33, anything else (accented letters, other scripts, emoji) 100;
 * - a character does not count when it repeats one of the two characters before it (`aaa`, `abab`) or continues
 *   a run of three consecutive ones (`abc`, `987`).
 *
 * It cannot tell a random password from a phrase people use; it refuses the obviously weak ones.
 */

/** The least a claiming password must reach at mint. */
export const MIN_CLAIMING_PASSWORD_BITS = 80;

const CLASSES: readonly { test: (c: number) => boolean; size: number }[] = [
  { test: (c) => c >= 0x61 && c <= 0x7a, size: 26 },
  { test: (c) => c >= 0x41 && c <= 0x5a, size: 26 },
  { test: (c) => c >= 0x30 && c <= 0x39, size: 10 },
  { test: (c) => c >= 0x20 && c <= 0x7e, size: 33 },
  { test: () => true, size: 100 },
];

/** The estimated strength of `password` (NFKC), in bits, rounded down. */
export function passwordBits(password: string): number {
  const codes = [...password.normalize("NFKC")].map((ch) => ch.codePointAt(0)!);
  const used = new Set<number>();
  let counted = 0;
  codes.forEach((c, i) => {
    used.add(CLASSES.findIndex((k) => k.test(c)));
    const [a, b] = [codes[i - 2], codes[i - 1]];
    const repeats = c === b || c === a;
    const run = a !== undefined && b !== undefined && Math.abs(c - b) === 1 && c - b === b - a;
    if (!repeats && !run) counted += 1;
  });
  const pool = [...used].reduce((sum, k) => sum + CLASSES[k]!.size, 0);
  return pool === 0 ? 0 : Math.floor(counted * Math.log2(pool));
}
