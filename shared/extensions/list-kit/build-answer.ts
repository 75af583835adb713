/**
 * What a list extension's build answers: a body in, an outcome out — the unsigned transaction with the list it
 * belongs to, or a refusal (type + message) — never a thrown error. The build itself dispatches Init, Insert, the
 * reference form's CREATE (either) and the extension's own transition (Claim, Redeem) to the extension's steps.
 */
import type { OgmiosUtxo } from "../../csl/utxo";
import { outRefOf } from "../../csl/utxo";
import type { OutRef } from "../../domain/out-ref";
import { isBuildRefusal, type IssuanceEnv } from "../../issuance/for-extensions";
import { isIssueRequest, type ListIssueRequest } from "./list-request";
import type { ListRef, ListSource } from "./list-source";
import type { BodyForm } from "./request-fields";

/** What a list extension's builds need: the issuance machinery, the indexer's lists, the extension's scripts. */
export interface ListExtensionEnv<Scripts> {
  issuance: IssuanceEnv;
  lists: ListSource;
  scripts: Scripts;
}

/** A built transaction of a list extension. */
export interface BuiltListTransaction<Action extends string> {
  readonly action: Action;
  readonly unsignedTransaction: string;
  readonly txId: string;
  readonly policyId: string;
  readonly initUtxoTxHash: string;
  readonly initUtxoOutputIndex: number;
  readonly key: string;
  /** the list entry the transaction spends (null for an Init) */
  readonly spends: OutRef | null;
}

export type ListBuildAnswer<Action extends string> =
  | { readonly ok: true; readonly form: BodyForm; readonly built: BuiltListTransaction<Action> }
  | {
      readonly ok: false;
      readonly form: BodyForm | null;
      readonly error: string;
      readonly message: string;
      readonly data: Record<string, unknown>;
      readonly policyId: string | null;
    };

/** The policy id a build has learnt so far (answered in `X-Policy-Id`, refusals included). */
export type KnownPolicy = { policyId: string | null };

export function builtListTransaction<Action extends string>(
  action: Action,
  tx: { cborHex: string; txId: string },
  policyId: string,
  initRef: OutRef,
  key: string,
  spends: OgmiosUtxo | null,
): BuiltListTransaction<Action> {
  return {
    action,
    unsignedTransaction: tx.cborHex,
    txId: tx.txId,
    policyId,
    initUtxoTxHash: initRef.txHash,
    initUtxoOutputIndex: initRef.index,
    key,
    spends: spends ? outRefOf(spends) : null,
  };
}

const errorOf = (err: unknown) => err as { name?: string; type?: string; message?: string; data?: unknown };

/** Never throws: a refusal (the extension's error, BuildRefusal) or an unexpected failure becomes an outcome. */
async function answerListBuild<Req extends { readonly form: BodyForm }, Action extends string>(
  errorName: string,
  parse: () => Req,
  build: (req: Req, known: KnownPolicy) => Promise<BuiltListTransaction<Action>>,
): Promise<ListBuildAnswer<Action>> {
  let req: Req | undefined;
  const known: KnownPolicy = { policyId: null };
  try {
    req = parse();
    return { ok: true, form: req.form, built: await build(req, known) };
  } catch (err) {
    const e = errorOf(err);
    const typed = e.name === errorName || isBuildRefusal(err);
    const data = typed && typeof e.data === "object" && e.data !== null ? (e.data as Record<string, unknown>) : {};
    return {
      ok: false,
      form: req?.form ?? null,
      error: typed ? String(e.type) : "UNKNOWN_ERROR",
      message: typed ? String(e.message) : `The transaction could not be built: ${e.message ?? String(err)}`,
      data,
      policyId: known.policyId,
    };
  }
}

/** An extension's build steps: Init, Insert, and its own transition (the request's other action). */
interface ListBuildSteps<Env, Terms, Config, OwnRequest, Built> {
  init(
    env: Env,
    address: string,
    initRef: OutRef | undefined,
    config: Config | undefined,
    terms: Terms,
    known: KnownPolicy,
  ): Promise<Built>;
  insert(env: Env, address: string, listRef: ListRef, terms: Terms, known: KnownPolicy): Promise<Built>;
  own(env: Env, req: OwnRequest, known: KnownPolicy): Promise<Built>;
}

/**
 * An extension's build handler: the body parsed, then Init, Insert, or (reference CREATE) Insert when the init
 * output reference already made a list, else Init; any other action is the extension's own. Never throws.
 */
export function listBuildHandler<
  Env extends { readonly lists: ListSource },
  Terms,
  Config,
  OwnRequest extends { readonly form: BodyForm; readonly action: string },
  Action extends string,
>(
  ext: { readonly errorName: string },
  parse: (body: Record<string, unknown>) => ListIssueRequest<Terms, Config> | OwnRequest,
  steps: ListBuildSteps<Env, Terms, Config, OwnRequest, BuiltListTransaction<Action>>,
): (env: Env, body: Record<string, unknown>) => Promise<ListBuildAnswer<Action>> {
  return (env, body) =>
    answerListBuild(
      ext.errorName,
      () => parse(body),
      async (req, known) => {
        if (!isIssueRequest<Terms, Config>(req)) return steps.own(env, req as OwnRequest, known);
        switch (req.action) {
          case "Init":
            return steps.init(env, req.address, req.initRef, req.config, req.terms, known);
          case "Insert":
            return steps.insert(env, req.address, req.list, req.terms, known);
          case "Create": {
            const { list } = await env.lists.list({ initRef: req.initRef });
            return list
              ? steps.insert(env, req.address, { initRef: req.initRef }, req.terms, known)
              : steps.init(env, req.address, req.initRef, req.config, req.terms, known);
          }
        }
      },
    );
}
