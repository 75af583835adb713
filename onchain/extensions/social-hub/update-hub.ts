/** Update: the owner rewrites the profile; the new datum is valid and keeps owner, batch id and item name. */
import { bs, plet, PTxInfo, PTxOut, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { SocialHubDatum } from "../connected-goods/types";
import { requireAll } from "../../rules";
import { isValidHubDatum } from "./profile";
import { isValidHubSpend } from "./spend-hub";
import type { HubBuild } from "./env";
import { handler } from "../../lib/handler";
import type { AnyTerm } from "../../lib/term";

/** (tx, spent hub output, own hash) → bool */
export function makeHubUpdate(b: HubBuild): AnyTerm {
  const { rule } = b;
  return handler([PTxInfo.type, PTxOut.type, bs], (tx: AnyTerm, spent: AnyTerm, own: AnyTerm) =>
    isValidHubSpend(rule, tx, spent, own, (cur, nextD) =>
      plet(punsafeConvertType(nextD, SocialHubDatum.type)).in((next: AnyTerm) =>
        requireAll(rule, [
          ["hub datum is valid", isValidHubDatum(nextD, b.isValidProfileField)],
          [
            "owner, batch and item are unchanged",
            next.owner.eq(cur.owner).and(next.batchId.eq(cur.batchId)).and(next.itemName.eq(cur.itemName)),
          ],
        ]),
      ),
    ),
  );
}
