/**
 * Certificate metadata in human words (docs/web-pages.md#templates): keys as labels (`graduation_date` →
 * "Graduation date"), http(s) values as links, ISO dates as dates. Metadata is untrusted: every value still goes
 * through `markup` (shared/presentation/html.ts), a link only ever has an http: or https: target, and anything
 * that is not plainly an identifier, a link or a date is shown exactly as written.
 */
import { displayText, markup, type SafeHtml } from "./html";

/** Words that read as initials. */
const INITIALISMS: Readonly<Record<string, string>> = { id: "ID", url: "URL", uri: "URI", gtin: "GTIN", iso: "ISO", co2: "CO2" };

/** A key made of words (snake_case or camelCase); anything else is shown as it is written. */
const IDENTIFIER = /^[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)*$/;

/** A metadata key as a label: `graduation_date` and `graduationDate` → "Graduation date"; other keys unchanged. */
export function fieldLabel(key: string): string {
  if (!IDENTIFIER.test(key)) return key;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[_\s]+/)
    .map((w) => (/^[A-Z0-9]+$/.test(w) && w.length > 1 ? w : w.toLowerCase()))
    .map((w) => INITIALISMS[w] ?? w);
  const [first = "", ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(" ");
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** `2026-06-30` → "30 June 2026"; undefined when `text` is not a real calendar date. */
function calendarDate(year: string, month: string, day: string): string | undefined {
  const d = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (d.getUTCFullYear() !== Number(year) || d.getUTCMonth() !== Number(month) - 1 || d.getUTCDate() !== Number(day)) return undefined;
  return `${Number(day)} ${MONTHS[d.getUTCMonth()]} ${year}`;
}

/** An ISO 8601 date or date-time as words; undefined for anything else. */
export function formatIsoDate(text: string): string | undefined {
  const date = DATE.exec(text);
  if (date !== null) return calendarDate(date[1]!, date[2]!, date[3]!);
  const dt = DATE_TIME.exec(text);
  if (dt === null || Number.isNaN(Date.parse(text))) return undefined;
  const day = calendarDate(dt[1]!, dt[2]!, dt[3]!);
  if (day === undefined || Number(dt[4]) > 23 || Number(dt[5]) > 59) return undefined;
  const zone = dt[7] === "Z" ? "UTC" : `UTC${dt[7]!}`;
  return `${day}, ${dt[4]}:${dt[5]} ${zone}`;
}

/** An absolute http(s) URL written as one, else undefined (no javascript:, data: or relative targets). */
export function safeLinkTarget(text: string): string | undefined {
  if (!/^https?:\/\/[^\s]+$/i.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A metadata value for the page: a link, a date, or its text. */
export function displayValue(value: unknown): SafeHtml {
  if (typeof value === "string") {
    const href = safeLinkTarget(value);
    if (href !== undefined) return markup`<a class="external" href="${href}" rel="nofollow noopener noreferrer">${value}</a>`;
    const date = formatIsoDate(value);
    if (date !== undefined) return markup`<time datetime="${value}">${date}</time>`;
  }
  return markup`${displayText(value)}`;
}
