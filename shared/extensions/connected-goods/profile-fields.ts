/**
 * The social hub's profile fields, in datum order (after owner, batch id and item name), and their names in the
 * API's JSON. Imports nothing, so the gateway's answer schemas read the list without loading the Plutus data codec
 * or CSL.
 */
export const PROFILE_FIELDS = [
  "picture",
  "name",
  "subtitle",
  "x",
  "telegram",
  "discord",
  "youtube",
  "website",
  "email",
  "adaHandle",
  "reddit",
  "instagram",
  "github",
  "linkedin",
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

/** The JSON names of the profile fields (snake_case, as the API's SocialHub), in datum order. */
export const PROFILE_JSON_NAMES: Readonly<Record<ProfileField, string>> = Object.fromEntries(
  PROFILE_FIELDS.map((f) => [f, f === "adaHandle" ? "ada_handle" : f]),
) as Record<ProfileField, string>;
