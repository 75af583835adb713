/**
 * The rule for text the service writes on chain or shows on pages (certificate metadata and algorithm, bootstrap
 * names, connected-goods item names and profiles, list-extension fields): no control characters — none of C0
 * (U+0000–U+001F, tab and line breaks included), DEL (U+007F) or C1 (U+0080–U+009F) — and no lone surrogate (half
 * of a UTF-16 pair, which has no UTF-8 form and would be written as U+FFFD). Such characters are invisible or move
 * the cursor on a terminal (ANSI escapes), and a name that holds them can pass for another.
 */

/** What is wrong with `text` in words ("holds the control character U+001B at character 4"), or undefined when nothing is. */
export function unprintableProblem(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit <= 0x1f || (unit >= 0x7f && unit <= 0x9f)) return `holds the control character ${codePointName(unit)} at character ${i + 1}`;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return `holds a lone surrogate ${codePointName(unit)} at character ${i + 1}`;
    }
    if (unit >= 0xdc00 && unit <= 0xdfff) return `holds a lone surrogate ${codePointName(unit)} at character ${i + 1}`;
  }
  return undefined;
}

/** Whether `text` holds no control character and no lone surrogate. */
export function isPrintable(text: string): boolean {
  return unprintableProblem(text) === undefined;
}

/**
 * The first key or string value of a JSON value that is not printable, as `[path, problem]` (path from `field`:
 * `metadata.name`, `metadata.tags[2]`, `metadata` for a key), or undefined when every one is.
 */
export function unprintableInJson(value: unknown, field: string): [string, string] | undefined {
  if (typeof value === "string") {
    const problem = unprintableProblem(value);
    return problem === undefined ? undefined : [field, problem];
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unprintableInJson(value[i], `${field}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      const keyProblem = unprintableProblem(key);
      if (keyProblem !== undefined) return [field, `has a key that ${keyProblem}`];
      const found = unprintableInJson(inner, `${field}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * What is wrong with certificate metadata text: JSON text is judged by its keys and string values (the whitespace
 * between its tokens may be line breaks), any other text as a whole. Undefined when nothing is.
 */
export function unprintableInMetadata(text: string, field: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const problem = unprintableProblem(text);
    return problem === undefined ? undefined : `${field} ${problem}`;
  }
  const found = unprintableInJson(parsed, field);
  return found === undefined ? undefined : `${found[0]} ${found[1]}`;
}

function codePointName(unit: number): string {
  return `U+${unit.toString(16).toUpperCase().padStart(4, "0")}`;
}
