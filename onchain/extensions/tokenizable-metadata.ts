/**
 * The tokenizable list's CIP-68 metadata script: a spend-only Plutus V3 script without parameters (one hash per
 * blueprint, so a deployer can name it in a list's config before the list exists). It holds reference tokens
 * `(100)name` and lets only the deployer of the list that minted one replace its datum:
 * - the spent output holds ADA and exactly one token, a CIP-68 reference token, of some policy P;
 * - a reference input holds P's HEAD token `TCN` (unique: minted once, at the list's Init, and kept at the
 *   list address), and the deployer named in that HEAD's config signs;
 * - an output at this script's payment credential holds ADA and exactly that token, with a CIP-68 metadata
 *   datum (lib/cip68.ts) keeping the `certificate_hash` of the spent datum.
 * So a reference token can never leave this script, nor lose the certificate it describes.
 */
import {
  bool,
  bs,
  int,
  list,
  pair,
  passert,
  pByteString,
  perror,
  pfn,
  pisEmpty,
  plet,
  pmatch,
  pnot,
  PScriptContext,
  psliceBs,
  punBData,
  punsafeConvertType,
  unit,
} from "@harmoniclabs/plu-ts";
import { makeRule, requireAll, type BuildOptions, type Rule } from "../rules";
import { isScriptAddress } from "../lib/addresses";
import { CIP68_REFERENCE_LABEL, cip68CertificateOf, cip68MapOf, hasCip68Metadata } from "./tokenizable/cip68";
import { PAnyConstr } from "../lib/constr-data";
import { inlineDatumOf } from "../lib/inline-datum";
import { isSignedBy } from "../lib/signatures";
import type { AnyTerm } from "../lib/term";
import { CONFIG_DEPLOYER_FIELD, TOKENIZABLE_LAYOUT } from "./tokenizable/types";

const LABEL_BYTES = CIP68_REFERENCE_LABEL.length / 2;

export function makeTokenizableMetadataValidator(opts: BuildOptions): AnyTerm {
  const rule = makeRule(opts);
  return pfn(
    [PScriptContext.type],
    unit,
  )(({ tx, purpose }: AnyTerm) =>
    (pmatch(purpose) as AnyTerm)
      .onSpending(({ utxoRef }: AnyTerm) => passert.$(isValidMetadataSpend(rule, tx, utxoRef)))
      ._((_: AnyTerm) => perror(unit)),
  );
}

function isValidMetadataSpend(rule: Rule, tx: AnyTerm, utxoRef: AnyTerm): AnyTerm {
  return plet(tx.inputs.filter((i: AnyTerm) => i.utxoRef.eq(utxoRef)).head.resolved).in((spent: AnyTerm) =>
    plet(spent.value.tail).in((tokens: AnyTerm) =>
      requireAll(rule, [["spent output holds one reference token", holdsOneReferenceToken(tokens)]]).and(
        plet(tokens.head).in((entry: AnyTerm) =>
          plet(entry.fst).in((policy: AnyTerm) =>
            plet(entry.snd.head.fst).in((name: AnyTerm) =>
              plet(
                tx.refInputs.filter((i: AnyTerm) => i.resolved.value.pamountOf.$(policy).$(pByteString(TOKENIZABLE_LAYOUT.prefix)).eq(1)),
              ).in((heads: AnyTerm) =>
                plet(spent.address.credential.hash).in((own: AnyTerm) =>
                  plet(
                    tx.outputs.filter((o: AnyTerm) =>
                      isScriptAddress(o.address, own)
                        .and(o.value.length.eq(2))
                        .and(o.value.pamountOf.$(policy).$(name).eq(1))
                        .and(o.value.tail.head.snd.length.eq(1)),
                    ),
                  ).in((kept: AnyTerm) =>
                    requireAll(rule, [
                      ["the list's HEAD is a reference input", pnot.$(pisEmpty.$(heads))],
                      ["reference token stays at the metadata script", pnot.$(pisEmpty.$(kept))],
                    ]).and(
                      requireAll(rule, [
                        ["the list's deployer signed", isSignedBy(tx.signatories, deployerOf(heads.head.resolved))],
                        [
                          "new datum is CIP-68 metadata of the same certificate",
                          plet(cip68CertificateOf(cip68MapOf(inlineDatumOf(spent)))).in((certificate: AnyTerm) =>
                            kept.some((o: AnyTerm) => hasCip68Metadata(o, certificate)),
                          ),
                        ],
                      ]),
                    ),
                  ),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/**
 * Whether a value's non-ADA part is exactly one CIP-68 reference token. A lambda of its own: the caller reads
 * `tokens.head` only after this holds, and plu-ts would otherwise share (and evaluate first) that read.
 */
function holdsOneReferenceToken(tokens: AnyTerm): AnyTerm {
  return pfn(
    [list(pair(bs, list(pair(bs, int))))],
    bool,
  )((t: AnyTerm) =>
    t.length.eq(1).and(
      plet(t.head.snd).in((names: AnyTerm) =>
        names.length
          .eq(1)
          .and(names.head.snd.eq(1))
          .and(psliceBs.$(0).$(LABEL_BYTES).$(names.head.fst).eq(pByteString(CIP68_REFERENCE_LABEL))),
      ),
    ),
  ).$(tokens);
}

/** The deployer named in the config of a HEAD output. */
function deployerOf(head: AnyTerm): AnyTerm {
  const headFields = punsafeConvertType(inlineDatumOf(head), PAnyConstr.type).raw.fields;
  const configFields = punsafeConvertType(headFields.at(TOKENIZABLE_LAYOUT.head.config), PAnyConstr.type).raw.fields;
  return punBData.$(configFields.at(CONFIG_DEPLOYER_FIELD));
}
