/**
 * Transfer{new_owner}: the new datum is the old one with only the owner replaced by a 28-byte key hash (rebuilt
 * and compared as Data). The new owner need not sign, as when sending any token: a transfer to a wrong key hash
 * is the signer's loss alone.
 */
import { bs, pBSToData, pConstrToData, peqData, PTxInfo, PTxOut } from "@harmoniclabs/plu-ts";
import { CREDENTIAL_HASH_BYTES } from "../../lib/addresses";
import { requireAll } from "../../rules";
import { isValidHubSpend } from "./spend-hub";
import type { HubBuild } from "./env";
import { handler } from "../../lib/handler";
import type { AnyTerm } from "../../lib/term";

/** (tx, spent hub output, own hash, new owner) → bool */
export function makeHubTransfer(b: HubBuild): AnyTerm {
  const { rule } = b;
  return handler([PTxInfo.type, PTxOut.type, bs, bs], (tx: AnyTerm, spent: AnyTerm, own: AnyTerm, newOwner: AnyTerm) =>
    isValidHubSpend(rule, tx, spent, own, (cur, nextD) =>
      requireAll(rule, [
        ["new owner is a key hash", newOwner.length.eq(CREDENTIAL_HASH_BYTES)],
        ["transfer changes only the owner", peqData.$(nextD).$(pConstrToData.$(0).$(cur.raw.fields.tail.prepend(pBSToData.$(newOwner))))],
      ]),
    ),
  );
}
