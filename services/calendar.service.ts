/**
 * calendar: the aggregated calendar (`POST /batch/submit`, `GET /batch/receipt/{receiptId}`, shared/merkle/calendar.ts)
 * and the transparency log its hashes go to (`/log…`, shared/transparency-log/). Requests live in the store
 * (`merkle_calendar_*`), so replicas share them and a restart loses nothing; the log's sequencer takes them within
 * LOG_INTEGRATE_MS, and every BATCH_INTERVAL_MS one replica at a time (the store's lease) anchors the log's latest
 * checkpoint as a certificate, built with the issuance machinery and paid and signed by the service wallet
 * (SERVICE_MNEMONIC, else the key file DATA_DIR/service-wallet.json). What each log round takes is announced as
 * `receipt.checkpointed` events, and each transaction the service wallet sends as `transaction.submitted`
 * (docs/events.md), without waiting for the events service.
 */
import type { Context, ServiceSchema } from "moleculer";
import type { ChainClient } from "../shared/chain";
import { networkIdOfNetwork } from "../shared/config/network";
import { DomainError, notFound, stillStarting } from "../shared/domain/errors";
import { loadOrCreateServiceWallet } from "../shared/first-start/service-wallet";
import { serviceWalletAnchorer } from "../shared/issuance/calendar-anchor";
import { calendarClientOf, checkCalendarAccess, MerkleCalendar, type CalendarCaller, type FoundReceipt } from "../shared/merkle";
import { openIssuanceOverMesh } from "../shared/mesh/issuance-over-mesh";
import { defineRouteActions, internalActions } from "../shared/gateway/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import type { Wallet } from "../shared/wallet";
import { calendarLogSource, receiptCose, receiptLogView, receiptTlogProof, type AnchoredHolding } from "../shared/merkle/calendar-log";
import { CALENDAR_REQUESTS, type CalendarRequestDocument } from "../shared/merkle/calendar-requests";
import { loadOrCreateLogKey, type LogKey } from "../shared/transparency-log/log-key";
import { TransparencyLog } from "../shared/transparency-log/transparency-log";
import { toBase64 } from "../shared/tlog/encoding";
import { rootAt } from "../shared/transparency-log/log-tree";
import { announcingReceipts } from "../shared/events/receipt-source";
import { transactionSubmitted } from "../shared/events/service-events";
import { EventAppender } from "../shared/mesh/event-appender";

/** How long the log waits for a witness's cosignature (the checkpoint is served meanwhile, without it). */
const WITNESS_TIMEOUT_MS = 5_000;

type CalendarMeta = { $statusCode?: number; clientKey?: string; calendarKeyId?: string };

export default function createCalendarService(deps: ServiceDeps): ServiceSchema {
  const settings = deps.config.batchCalendar;
  const locals: { calendar?: MerkleCalendar; client?: ChainClient; log?: TransparencyLog; logKey?: LogKey; events?: EventAppender } = {};
  const calendarOf = (): MerkleCalendar => {
    if (!locals.calendar) throw stillStarting("calendar");
    return locals.calendar;
  };
  const logOf = (): TransparencyLog => {
    checkEnabled();
    if (!locals.log) throw stillStarting("calendar");
    return locals.log;
  };
  function checkEnabled(): void {
    if (!settings.enabled)
      throw new DomainError("CALENDAR_DISABLED", "The aggregated calendar is disabled on this service (BATCH_CALENDAR_ENABLED=false).");
  }
  const anchoredHolding: AnchoredHolding = (index) => calendarOf().anchoredCheckpointHolding(index);
  /** `anchoredHolding` asked once per entry: a receipt's status and its log view both need it (a NATS call per round). */
  const anchoredHoldingOnce = (): AnchoredHolding => {
    const asked = new Map<number, ReturnType<AnchoredHolding>>();
    return (index) => {
      let answer = asked.get(index);
      if (answer === undefined) asked.set(index, (answer = anchoredHolding(index)));
      return answer;
    };
  };
  /** The request and position a receipt id names, or 404. */
  async function foundReceipt(receiptId: string): Promise<FoundReceipt> {
    checkEnabled();
    const found = await calendarOf().findReceipt(receiptId);
    if (!found) throw notFound(`No calendar receipt ${receiptId}.`);
    return found;
  }

  return {
    name: "calendar",
    actions: {
      ...defineRouteActions("calendar", {
        /** Hashes for the calendar: 202 with a receipt per hash. */
        submit: {
          async handler(ctx: Context<Record<string, unknown>, CalendarMeta>) {
            const caller: CalendarCaller = {
              clientKey: ctx.meta.clientKey ?? "mesh",
              ...(ctx.meta.calendarKeyId !== undefined ? { keyId: ctx.meta.calendarKeyId } : {}),
            };
            checkCalendarAccess({ enabled: settings.enabled, network: deps.config.network }, caller);
            const answer = await calendarOf().submit((ctx.params ?? {})["hashes"], calendarClientOf(caller));
            ctx.meta.$statusCode = 202;
            return answer;
          },
        },
        receipt: {
          async handler(ctx: Context<{ receiptId: string }>) {
            const id = String(ctx.params.receiptId).toLowerCase();
            const found = await foundReceipt(id);
            const holding = anchoredHoldingOnce();
            const receipt = await calendarOf().receiptOf(id, found, holding);
            const view = await receiptLogView(logOf().store, found, holding);
            const log = view.status === "waiting" ? { status: "waiting" } : { ...view, proofUrl: `/api/v1/batch/receipt/${id}/proof` };
            return { ...receipt, log };
          },
        },
        /** The receipt's c2sp.org/tlog-proof@v1 proof, as a `.tlog-proof` file. */
        receiptProof: {
          async handler(
            ctx: Context<{ receiptId: string }, CalendarMeta & { $responseType?: string; $responseHeaders?: Record<string, string> }>,
          ) {
            const id = String(ctx.params.receiptId).toLowerCase();
            const proof = await receiptTlogProof(logOf().store, await foundReceipt(id));
            if (proof === undefined) throw notFound(`Receipt ${id} is not in a signed checkpoint yet; retry in a second.`);
            ctx.meta.$responseType = "text/plain; charset=utf-8";
            ctx.meta.$responseHeaders = { "Content-Disposition": `attachment; filename="${id}.tlog-proof"` };
            return proof;
          },
        },
        /** The log: origin, verifier key, the latest checkpoint. */
        log: {
          async handler(ctx: Context<unknown, { apiBaseUrl?: string }>) {
            const info = await logOf().info();
            return { ...info, monitoringPrefix: `${ctx.meta.apiBaseUrl ?? ""}/log` };
          },
        },
        /** A consistency proof between two sizes (RFC 9162 §2.1.4). */
        logConsistency: {
          async handler(ctx: Context<{ from: number; to: number }>) {
            const from = Number(ctx.params.from);
            const to = Number(ctx.params.to);
            const proof = await logOf().consistency(from, to);
            return { from, to, proof: proof.map(toBase64) };
          },
        },
      }),
      ...internalActions({
        /** A tile or entry bundle by its tlog-tiles path, base64 (the gateway serves it: shared/gateway/log-tiles.ts). */
        logTile: {
          params: { path: { type: "string", max: 64 } },
          async handler(ctx: Context<{ path: string }>) {
            const bytes = await logOf().tile(ctx.params.path);
            return { bytes: bytes.toString("base64") };
          },
        },
        /** The receipt's RFC 9942 COSE receipt, base64 (the gateway serves it: shared/gateway/log-tiles.ts). */
        receiptCose: {
          params: { receiptId: { type: "string", pattern: /^[0-9a-f]{32}$/ } },
          async handler(ctx: Context<{ receiptId: string }>) {
            const found = await foundReceipt(ctx.params.receiptId);
            const cose = await receiptCose(logOf().store, found, locals.logKey!.signerKey);
            if (cose === undefined) throw notFound(`Receipt ${ctx.params.receiptId} is not in a signed checkpoint yet; retry in a second.`);
            return { bytes: Buffer.from(cose).toString("base64") };
          },
        },
        /** The latest signed checkpoint note, with its witnesses' cosignatures once they came. */
        logCheckpoint: {
          async handler() {
            const checkpoint = await logOf().checkpoint();
            if (checkpoint === undefined) throw notFound("The log has no checkpoint yet.");
            return { checkpoint };
          },
        },
      }),
    },
    async started() {
      // disabled, the routes answer 403 and nothing is opened
      if (!settings.enabled) return;
      const broker = this.broker;
      const logger = this.logger;
      const store = await deps.resources.store();
      const { client, issuance } = await openIssuanceOverMesh(broker, deps, "calendar");
      locals.client = client;
      // the service wallet's keys are read (or its key file made) by the first round that has leaves to anchor
      let wallet: Wallet | undefined;
      const walletOf = (): Wallet =>
        (wallet ??= loadOrCreateServiceWallet({
          dataDir: deps.config.dataDir,
          mnemonic: deps.config.serviceMnemonic,
          networkId: networkIdOfNetwork(deps.config.network),
        }).wallet);
      const requests = store.collection<CalendarRequestDocument>(CALENDAR_REQUESTS);
      const key = loadOrCreateLogKey({ dataDir: deps.config.dataDir, signerKey: settings.log.signerKey, origin: settings.log.origin });
      if (key.source === "created") logger.info("transparency log key created", { verifierKey: key.verifierKey });
      locals.logKey = key;
      const events = (locals.events = new EventAppender(broker));
      locals.log = await TransparencyLog.open({
        store,
        source: announcingReceipts(calendarLogSource(requests), {
          rootAt: async (size) => Buffer.from(await rootAt(logOf().store, size)).toString("hex"),
          append: (announced) => events.append(announced),
          now: deps.now,
          onError: (err) =>
            logger.warn("the log's round could not be announced", { error: err instanceof Error ? err.message : String(err) }),
        }),
        key,
        settings: { origin: settings.log.origin, intervalMs: settings.log.integrateMs },
        witnessing: {
          witnesses: settings.log.witnesses,
          timeoutMs: WITNESS_TIMEOUT_MS,
          onFailure: (witness, error) => logger.warn("a witness did not cosign the log's checkpoint", { witness: witness.url, error }),
        },
        now: deps.now,
        onRound: (outcome) => {
          if (outcome.kind === "failed")
            logger.warn("transparency log round failed; the hashes wait for the next", { message: outcome.message });
        },
      });
      const log = locals.log;
      locals.calendar = await MerkleCalendar.open({
        store,
        anchorer: serviceWalletAnchorer(issuance, walletOf, (sent) =>
          events.append([transactionSubmitted(sent.txId, sent.inFlightUntil, deps.now())]),
        ),
        chain: {
          onChain: async (txId) => Boolean(await broker.call("indexer.transaction", { id: txId })),
          inMempoolAmong: (txIds) => client.inMempoolAmong(txIds),
          anchorServed: (transactionHash, root) =>
            broker.call("verifier.byTransactionHash", { transactionHash, dataHash: root }).then(
              () => true,
              (err: unknown) => {
                // not found: not in a block (yet), or not followed by the verifier yet
                if ((err as { type?: string }).type === "NOT_FOUND") return false;
                throw err;
              },
            ),
        },
        settings,
        now: deps.now,
        // each round anchors the log's latest checkpoint when the log grew (docs/transparency-log.md#cardano-anchoring)
        log: {
          latestCheckpoint: () => log.anchorableCheckpoint(),
          hashAt: (index) => log.hashAt(index),
          extendLookups: (size) => log.lookup.indexUpTo(size),
        },
        onRound: (outcome) => {
          if (outcome.kind === "anchored") logger.info("calendar round anchored the log's checkpoint", outcome);
          else if (outcome.kind === "failed")
            logger.warn("calendar round failed; the next round anchors the log's checkpoint", { message: outcome.message });
        },
      });
      locals.calendar.start();
      locals.log.sequencer.start();
    },
    async stopped() {
      await locals.log?.sequencer.stop();
      await locals.calendar?.stop();
      await locals.events?.flush(2_000);
      locals.events?.stop();
      await locals.client?.close();
    },
  };
}
