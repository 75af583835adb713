/**
 * Reading the conventions clients put in certificate metadata (docs/decisions.md#certificate-metadata).
 * Metadata is the raw JSON string as issued; anything unparsable is simply "no template".
 */
export const TEMPLATE_ID_KEYS = ["uv_tid", "service_template_id", "uverify_template_id"] as const;

export function parseMetadataObject(metadata: string): Record<string, unknown> | undefined {
  if (metadata.trim() === "") return undefined;
  try {
    const value: unknown = JSON.parse(metadata);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The certificate page template id, from the first recognised key holding a string. */
export function templateIdOf(metadata: string): string | undefined {
  const obj = parseMetadataObject(metadata);
  if (!obj) return undefined;
  for (const key of TEMPLATE_ID_KEYS) {
    const v = obj[key];
    if (typeof v === "string" && v !== "") return v;
  }
  return undefined;
}

export const CERTIFICATE_CATEGORIES = [
  "Identity",
  "Connected Goods",
  "Notary",
  "Student Certification",
  "Cross-Chain Attestation",
] as const;
export type CertificateCategory = (typeof CERTIFICATE_CATEGORIES)[number];

const CATEGORY_BY_TEMPLATE: Record<string, CertificateCategory> = {
  tadamon: "Identity",
  IdentityAuth: "Identity",
  socialHub: "Connected Goods",
  linktree: "Connected Goods",
  productVerification: "Connected Goods",
  diploma: "Student Certification",
  blockforce: "Cross-Chain Attestation",
};

/** Statistics category of a certificate; everything unrecognised is "Notary". */
export function categoryOf(metadata: string): CertificateCategory {
  const id = templateIdOf(metadata);
  return (id !== undefined && CATEGORY_BY_TEMPLATE[id]) || "Notary";
}
