import { expect } from "chai";
import {
  DeploymentError,
  defaultBootstrapTerms,
  deployProtocol,
  type DeploymentPorts,
  type BuildRequest,
} from "../../shared/first-start/protocol-deployment";
import { buildPayment, txIdOf } from "../../shared/csl";
import { Devnet } from "../../shared/devnet";
import { generateMnemonic, Wallet } from "../../shared/wallet";

/** Ports over a protocol that is already initialised and deployed: only the bootstrap datum is missing. */
function deployedProtocolPorts(
  buildAnswer: (req: BuildRequest) => { unsignedTransaction?: string; status?: { code?: string; message?: string } },
): DeploymentPorts & { builds: BuildRequest[] } {
  const builds: BuildRequest[] = [];
  let now = 1_000;
  return {
    builds,
    build: async (req) => {
      builds.push(req);
      return buildAnswer(req);
    },
    ownTransactions: async () => ({
      submit: async () => {
        throw new Error("nothing may be submitted when the build fails");
      },
      inflight: { recordSubmitted: () => undefined },
      now: () => now,
    }),
    protocol: async () => ({
      proxyPolicyId: "aa",
      pointer: { scriptPointer: "bb" },
      library: [
        { scriptHash: "aa", outRef: { txHash: "t", index: 0 } },
        { scriptHash: "bb", outRef: { txHash: "t", index: 1 } },
      ],
    }),
    bootstrapNames: async () => [],
    utxosAt: async () => [],
    protocolParameters: async () => {
      throw new Error("not needed");
    },
    now: () => (now += 10),
    pause: async () => undefined,
  };
}

describe("bootstrap: the protocol bootstrap runner", () => {
  const wallet = Wallet.fromMnemonic(generateMnemonic());

  it("skips the steps already on chain and asks for the default bootstrap with the planned terms", async () => {
    const ports = deployedProtocolPorts(() => ({ status: { code: "ERROR", message: "Bootstrap datum with name default already exists" } }));
    let caught: unknown;
    try {
      await deployProtocol(ports, { wallet, bootstrapName: "default", bootstrapTerms: defaultBootstrapTerms(wallet) });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(DeploymentError);
    expect((caught as DeploymentError).type).to.equal("BUILD_FAILED");
    expect((caught as DeploymentError).message).to.contain("ERROR Bootstrap datum with name default already exists");
    expect(ports.builds).to.have.length(1);
    const req = ports.builds[0]!;
    expect(req).to.deep.include({ type: "bootstrap", address: wallet.address });
    expect(req.bootstrapDatum).to.deep.include({
      name: "default",
      fee: 0,
      feeInterval: 1,
      batchSize: 10,
      transactionLimit: 1000,
      whitelistedAddresses: [],
      feeReceiverAddresses: [wallet.enterpriseAddress],
    });
    // ttl one year after the clock
    expect(req.bootstrapDatum!["ttl"]).to.be.within(365 * 24 * 3600 * 1000, 365 * 24 * 3600 * 1000 + 1_000_000);
  });

  it("gives up on a step whose effect never shows up, naming it", async () => {
    const devnet = await Devnet.create({ genesis: [{ address: wallet.address, lovelace: 10_000_000n }] });
    const unsigned = buildPayment({
      protocolParameters: devnet.protocolParameters() as never,
      utxos: devnet.queryUtxo({ addresses: [wallet.address] }) as never,
      changeAddress: wallet.address,
      outputs: [{ address: wallet.enterpriseAddress, lovelace: 2_000_000n }],
    }).cborHex;
    await devnet.close();
    const ports = deployedProtocolPorts(() => ({ unsignedTransaction: unsigned, status: { code: "SUCCESS", message: "" } }));
    ports.ownTransactions = async () => ({ submit: async () => undefined, inflight: { recordSubmitted: () => undefined }, now: () => 0 });
    let caught: unknown;
    try {
      await deployProtocol(ports, { wallet, bootstrapName: "default", bootstrapTerms: defaultBootstrapTerms(wallet), stepTimeoutMs: 100 });
    } catch (err) {
      caught = err;
    }
    expect((caught as DeploymentError).type).to.equal("STEP_TIMEOUT");
    expect((caught as DeploymentError).message).to.contain(`the bootstrap transaction ${txIdOf(unsigned)}`);
  });
});
