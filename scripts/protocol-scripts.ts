// `npm run protocol-scripts`: the scripts this version of the code derives for the configured deployment
// (PROXY_TX_HASH, PROXY_OUTPUT_INDEX, SERVICE_KEY_HASH, BOOTSTRAP_ADMINS, NETWORK): hashes, addresses and the state
// script's applied code. That code is the body of `POST /api/v1/library/upgrade/proxy` when an existing deployment
// moves to this version's state script (README "Production deployment", docs/protocol.md#moving-to-a-new-state-script).
// Output is JSON on stdout; errors are JSON on stderr with exit code 1.
import { loadConfig } from "../shared/config/config";
import { networkIdOfNetwork } from "../shared/config/network";
import { deploymentScripts } from "../shared/protocol";

export interface ProtocolScriptsReport {
  network: string;
  proxy: { hash: string; address: string };
  pointerTokenName: string;
  state: { hash: string; rewardAddress: string; size: number; code: string };
  library: { hash: string; address: string };
}

export function run(env: Readonly<Record<string, string | undefined>> = process.env): ProtocolScriptsReport {
  const config = loadConfig(env);
  if (!config.protocol) throw new Error("No protocol deployment is configured: set PROXY_TX_HASH and SERVICE_KEY_HASH (and NETWORK).");
  const s = deploymentScripts(config.protocol, networkIdOfNetwork(config.network));
  return {
    network: config.network,
    proxy: { hash: s.proxy.hash, address: s.proxy.address },
    pointerTokenName: s.pointerTokenName,
    state: { hash: s.state.hash, rewardAddress: s.state.rewardAddress, size: s.state.size, code: s.state.code },
    library: { hash: s.library.hash, address: s.library.address },
  };
}

if (require.main === module) {
  try {
    process.stdout.write(`${JSON.stringify(run(), null, 2)}\n`);
  } catch (err) {
    process.stderr.write(`${JSON.stringify({ error: "ERROR", message: err instanceof Error ? err.message : String(err) })}\n`);
    process.exitCode = 1;
  }
}
