/**
 * calendar: the aggregated Merkle calendar (`POST /batch/submit`, `GET /batch/receipt/{receiptId}`,
 * shared/merkle/calendar.ts). Pending leaves live in the store (`merkle_calendar_*`), so replicas share them and a
 * restart loses nothing; every BATCH_INTERVAL_MS, or as soon as BATCH_MAX_LEAVES leaves wait, one replica at a time
 * (the store's lease) anchors them as one batch certificate, built with the issuance machinery and paid and signed by
 * the service wallet (SERVICE_MNEMONIC, else the key file DATA_DIR/service-wallet.json).
 */
import type { Context, ServiceSchema } from "moleculer";
import type { ChainClient } from "../shared/chain";
import { networkIdOfNetwork } from "../shared/config/network";
import { DomainError, notFound, stillStarting } from "../shared/domain/errors";
import { loadOrCreateServiceWallet } from "../shared/first-start/service-wallet";
import { serviceWalletAnchorer } from "../shared/issuance/calendar-anchor";
import { calendarClientOf, checkCalendarAccess, MerkleCalendar, MerkleTreeStore, type CalendarCaller } from "../shared/merkle";
import { openIssuanceOverMesh } from "../shared/mesh/issuance-over-mesh";
import { defineRouteActions } from "../shared/gateway/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import type { Wallet } from "../shared/wallet";

type CalendarMeta = { $statusCode?: number; clientKey?: string; calendarKeyId?: string };

export default function createCalendarService(deps: ServiceDeps): ServiceSchema {
  const settings = deps.config.batchCalendar;
  const locals: { calendar?: MerkleCalendar; client?: ChainClient } = {};
  const calendarOf = (): MerkleCalendar => {
    if (!locals.calendar) throw stillStarting("calendar");
    return locals.calendar;
  };

  return {
    name: "calendar",
    actions: defineRouteActions("calendar", {
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
          if (!settings.enabled)
            throw new DomainError(
              "CALENDAR_DISABLED",
              "The aggregated calendar is disabled on this service (BATCH_CALENDAR_ENABLED=false).",
            );
          const id = String(ctx.params.receiptId).toLowerCase();
          const receipt = await calendarOf().receipt(id);
          if (!receipt) throw notFound(`No calendar receipt ${id}.`);
          return receipt;
        },
      },
    }),
    async started() {
      // disabled, the routes answer 403 and nothing is opened
      if (!settings.enabled) return;
      const broker = this.broker;
      const logger = this.logger;
      const store = await deps.resources.store();
      const trees = await MerkleTreeStore.open(store, deps.now);
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
      locals.calendar = await MerkleCalendar.open({
        store,
        trees,
        anchorer: serviceWalletAnchorer(issuance, walletOf),
        chain: {
          onChain: async (txId) => Boolean(await broker.call("indexer.transaction", { id: txId })),
          inMempoolAmong: (txIds) => client.inMempoolAmong(txIds),
        },
        settings,
        now: deps.now,
        onRound: (outcome) => {
          if (outcome.kind === "anchored") logger.info("calendar round anchored", outcome);
          else if (outcome.kind === "failed") logger.warn("calendar round failed; the leaves stay pending", { message: outcome.message });
        },
      });
      locals.calendar.start();
    },
    async stopped() {
      await locals.calendar?.stop();
      await locals.client?.close();
    },
  };
}
