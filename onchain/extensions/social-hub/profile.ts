/**
 * Validity of a social-hub datum. Profile fields are AES-256-GCM ciphertexts made off chain (nonce ‖ ciphertext
 * ‖ tag), so the script can only bound their size, never look at their content: a set field holds 29..664 bytes,
 * i.e. 1..636 plaintext bytes (159 characters of up to 4 UTF-8 bytes) plus 28 bytes of nonce and tag.
 */
import { bool, data, peqData, pfn, phoist, pif, pisEmpty, plet, punBData, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { SOCIAL_HUB_FIELDS, SOCIAL_HUB_IDENTITY_FIELDS, SocialHubDatum } from "../connected-goods/types";
import { OPTION_SOME, OptionBytes, noneData } from "../../lib/option";
import { MAX_ITEM_NAME_BYTES } from "../connected-goods/items";
import { CREDENTIAL_HASH_BYTES } from "../../lib/addresses";
import type { AnyTerm } from "../../lib/term";

const MIN_PROFILE_FIELD_BYTES = 29;
const MAX_PROFILE_FIELD_BYTES = 664;
const BATCH_ID_BYTES = 32;

/** A closed, hoisted check data → bool: `Constr 1 []` (None) or `Constr 0 [B b]` (Some) with b within the bounds. */
export function makeIsValidProfileField(): AnyTerm {
  return phoist(
    pfn(
      [data],
      bool,
    )((field: AnyTerm) =>
      plet(punsafeConvertType(field, OptionBytes.type)).in((o: AnyTerm) =>
        pif(bool)
          .$(o.raw.index.eq(OPTION_SOME))
          .then(
            plet(o.raw.fields).in((fs: AnyTerm) =>
              pisEmpty
                .$(fs.tail)
                .and(
                  plet(punBData.$(fs.head).length).in((n: AnyTerm) => n.gtEq(MIN_PROFILE_FIELD_BYTES).and(n.ltEq(MAX_PROFILE_FIELD_BYTES))),
                ),
            ),
          )
          .else(peqData.$(field).$(noneData())),
      ),
    ),
  );
}

/** The datum's fields after the identity fields. */
function profileFieldsOf(fields: AnyTerm): AnyTerm {
  let rest = fields;
  for (let i = 0; i < SOCIAL_HUB_IDENTITY_FIELDS; i++) rest = rest.tail;
  return rest;
}

/**
 * `Constr 0` with exactly 17 fields: a 28-byte owner key hash, a 32-byte batch id, a 1..32-byte item name and 14
 * valid profile fields.
 */
export function isValidHubDatum(datum: AnyTerm, isValidProfileField: AnyTerm): AnyTerm {
  return plet(punsafeConvertType(datum, SocialHubDatum.type)).in((d: AnyTerm) =>
    plet(d.raw.fields).in((fields: AnyTerm) =>
      plet(d.itemName.length).in((nameLength: AnyTerm) =>
        d.raw.index
          .eq(0)
          .and(fields.length.eq(SOCIAL_HUB_FIELDS))
          .and(d.owner.length.eq(CREDENTIAL_HASH_BYTES))
          .and(d.batchId.length.eq(BATCH_ID_BYTES))
          .and(nameLength.gt(0))
          .and(nameLength.ltEq(MAX_ITEM_NAME_BYTES))
          .and(profileFieldsOf(fields).every((f: AnyTerm) => isValidProfileField.$(f))),
      ),
    ),
  );
}
