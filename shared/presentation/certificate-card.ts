/**
 * The certificate card: templates (docs/web-pages.md#templates) chosen by the metadata's template id
 * (docs/decisions.md#certificate-metadata; its first character is compared case-insensitively). Each template is a
 * declaration — kicker, heading key, fields in order, revealed fields, prefixed groups — rendered by one function,
 * so every template escapes the same way and none can hide a field: keys no template names are listed under
 * "Other details". The fields are the ones the published client (`@uverify/sdk` 0.1.8, `client.apps.*`) writes.
 */
import { TEMPLATE_ID_KEYS } from "../domain/certificate-metadata";
import { displayText, markup, type HtmlValue, type SafeHtml } from "./html";
import { displayValue, fieldLabel } from "./metadata-display";
import { REVEALED_KEY_PREFIX, type RevealedField } from "./revealed-values";
import { isReservedKey } from "./update-policy";

type Field = { key: string; label: string } | { revealed: string; label: string };

export interface TemplateSpec {
  /** Small line above the heading. */
  kicker: string;
  /** Metadata keys tried in order for the heading. */
  heading: readonly string[];
  /** Metadata key of a paragraph under the heading. */
  paragraph?: string;
  fields: readonly Field[];
  /** Keys `<prefix><name>` shown as one table each, labelled without the prefix. */
  groups?: ReadonlyArray<{ prefix: string; label: string }>;
}

export const TEMPLATES: Readonly<Record<string, TemplateSpec>> = {
  default: {
    kicker: "Certificate",
    heading: ["title", "name"],
    paragraph: "description",
    fields: [{ key: "issuer", label: "Issued by" }],
  },
  diploma: {
    kicker: "Diploma",
    heading: ["title"],
    paragraph: "description",
    fields: [
      { revealed: "name", label: "Awarded to" },
      { key: "issuer", label: "Institution" },
    ],
  },
  digitalProductPassport: {
    kicker: "Digital product passport",
    heading: ["name"],
    fields: [
      { key: "issuer", label: "Manufacturer" },
      { key: "gtin", label: "GTIN" },
      { revealed: "serial", label: "Serial number" },
      { key: "model", label: "Model" },
      { key: "origin", label: "Origin" },
      { key: "manufactured", label: "Manufactured" },
      { key: "energy_class", label: "Energy class" },
      { key: "carbon_footprint", label: "Carbon footprint" },
      { key: "recycled_content", label: "Recycled content" },
      { key: "warranty", label: "Warranty" },
      { key: "spare_parts", label: "Spare parts" },
      { key: "repair_info", label: "Repair information" },
      { key: "recycling", label: "Recycling" },
      { key: "contact", label: "Contact" },
      { key: "brand_color", label: "Brand colour" },
    ],
    groups: [
      { prefix: "mat_", label: "Materials" },
      { prefix: "cert_", label: "Certifications" },
    ],
  },
  laboratoryReport: {
    kicker: "Laboratory report",
    heading: ["issuer"],
    fields: [
      { revealed: "name", label: "Patient" },
      { revealed: "report_id", label: "Report ID" },
      { key: "auditable", label: "Auditable" },
      { key: "contact", label: "Contact" },
    ],
    groups: [{ prefix: "a_", label: "Results" }],
  },
  certificateOfInsurance: {
    kicker: "Certificate of insurance",
    heading: ["issuer"],
    fields: [
      { key: "policy_number", label: "Policy number" },
      { key: "effective_date", label: "Effective" },
      { key: "expiration_date", label: "Expires" },
      { key: "producer", label: "Producer" },
      { revealed: "insured", label: "Insured" },
      { revealed: "insured_address", label: "Insured's address" },
      { revealed: "certificate_holder", label: "Certificate holder" },
      { revealed: "certificate_holder_address", label: "Holder's address" },
      { key: "additional_insured", label: "Additional insured" },
      { key: "waiver_of_subrogation", label: "Waiver of subrogation" },
    ],
    groups: [{ prefix: "cov_", label: "Coverages" }],
  },
};

/** The template for a template id: exact name, or with its first character lowercased; else the default one. */
export function templateNamed(id: string | undefined): { name: string; spec: TemplateSpec } {
  const candidates = id === undefined ? [] : [id, id.charAt(0).toLowerCase() + id.slice(1)];
  for (const name of candidates) {
    const spec = Object.hasOwn(TEMPLATES, name) ? TEMPLATES[name] : undefined;
    if (spec) return { name, spec };
  }
  return { name: "default", spec: TEMPLATES["default"]! };
}

const present = (v: unknown) => v !== undefined && v !== null && v !== "";

/** One revealed field as a definition-list value, with its machine-readable state. */
function revealedValue(field: RevealedField | undefined): SafeHtml {
  if (field === undefined || field.state === "hidden")
    return markup`<dd class="revealed hidden" data-revealed="hidden">not revealed by this link</dd>`;
  if (field.state === "match")
    return markup`<dd class="revealed match" data-revealed="match"><span class="value">${field.value ?? ""}</span> <span class="badge ok">✓ matches the certificate</span></dd>`;
  return markup`<dd class="revealed mismatch" data-revealed="mismatch"><span class="badge bad">✗ does not match</span> the value in this link is not the one this certificate was issued for</dd>`;
}

function row(label: string, value: unknown): SafeHtml {
  return markup`<dt>${label}</dt><dd>${displayValue(value)}</dd>`;
}

/** The certificate card for metadata (already chosen by the update policy) and the link's revealed fields. */
export function renderCertificateCard(
  templateId: string | undefined,
  metadata: Record<string, unknown>,
  revealed: RevealedField[],
): SafeHtml {
  const { name, spec } = templateNamed(templateId);
  const used = new Set<string>([...TEMPLATE_ID_KEYS]);
  const byName = new Map(revealed.map((r) => [r.name, r]));
  const usedRevealed = new Set<string>();

  const headingKey = spec.heading.find((k) => present(metadata[k]));
  if (headingKey !== undefined) used.add(headingKey);
  const heading = headingKey !== undefined ? displayText(metadata[headingKey]) : spec.kicker;
  let paragraph: HtmlValue = "";
  if (spec.paragraph !== undefined && present(metadata[spec.paragraph])) {
    used.add(spec.paragraph);
    paragraph = markup`<p class="description">${displayText(metadata[spec.paragraph])}</p>\n`;
  }

  const rows: SafeHtml[] = [];
  for (const f of spec.fields) {
    if ("revealed" in f) {
      if (!byName.has(f.revealed)) continue;
      usedRevealed.add(f.revealed);
      rows.push(markup`<dt>${f.label}</dt>${revealedValue(byName.get(f.revealed))}\n`);
    } else if (present(metadata[f.key]) && !used.has(f.key)) {
      used.add(f.key);
      rows.push(markup`${row(f.label, metadata[f.key])}\n`);
    }
  }
  for (const r of revealed) {
    if (usedRevealed.has(r.name)) continue;
    rows.push(markup`<dt>${fieldLabel(r.name)}</dt>${revealedValue(r)}\n`);
  }

  const groups: SafeHtml[] = [];
  for (const g of spec.groups ?? []) {
    const entries = Object.entries(metadata).filter(([k]) => k.startsWith(g.prefix) && k.length > g.prefix.length && !used.has(k));
    if (entries.length === 0) continue;
    for (const [k] of entries) used.add(k);
    const groupRows = entries.map(([k, v]) => markup`${row(fieldLabel(k.slice(g.prefix.length)), v)}\n`);
    groups.push(markup`<section class="group"><h3>${g.label}</h3>\n<dl class="fields">\n${groupRows}</dl></section>\n`);
  }

  const others = Object.entries(metadata).filter(
    ([k]) => !used.has(k) && !isReservedKey(k) && !k.startsWith(REVEALED_KEY_PREFIX) && k !== "service_template_id",
  );
  const otherRows = others.map(([k, v]) => markup`${row(fieldLabel(k), v)}\n`);
  const otherSection =
    others.length > 0 ? markup`<section class="group"><h3>Other details</h3>\n<dl class="fields">\n${otherRows}</dl></section>\n` : "";

  return markup`<article class="card template-${name}" data-template="${name}">
<p class="kicker">${spec.kicker}</p>
<h2 class="heading">${heading}</h2>
${paragraph}${rows.length > 0 ? markup`<dl class="fields">\n${rows}</dl>\n` : ""}${groups}${otherSection}</article>
`;
}
