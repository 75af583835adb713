// Static checks of deploy/: every manifest parses and is valid against the Kubernetes API schema of its kind
// (kubernetes-models, unknown fields included), each service has exactly one Deployment
// wired the way the code expects (SERVICES, probes on HEALTH_PORT, metrics annotations, the variables the code reads,
// secrets, resources, grace period), the HPAs, Services, Ingress, kustomization and Dockerfile point at things that
// exist, and NATS gives each service a user of its own whose permissions are checked statically, then against a real
// nats-server running nats.yaml's config with Moleculer brokers configured as the Deployments.
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ServiceBroker, type BrokerOptions, type Context } from "moleculer";
import { connect, type NatsConnection } from "nats";
import { parseAllDocuments } from "yaml";
import { createBrokerOptions } from "../../moleculer.config";
import { requireNatsServer } from "../../fixtures/processes/nats-server";
import { describeConfig, ENV_VARS, loadConfig } from "../../shared/config/config";
import { SERVICE_NAMES } from "../../shared/mesh/service-names";
import { BATCH_BINARY_BODY_LIMIT_BYTES, BATCH_JSON_BODY_LIMIT_BYTES } from "../../shared/merkle/batch-limits";
import { ROUTES } from "../../shared/gateway/routes";
import { chainEventPublisher } from "../../shared/mesh/chain-event-publisher";
import {
  CHAIN_BLOCK,
  eventLogSubject,
  OBSERVER_NATS_USER,
  publishedChainSubjects,
  publishedEventLogSubjects,
  publishedSubject,
} from "../../shared/records/published-events";

const ROOT = join(__dirname, "..", "..");
const K8S = join(ROOT, "deploy", "k8s");

interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean }; fieldRef?: { fieldPath: string } };
}
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string } }[];
  ports?: { name: string; containerPort: number }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: { cpu?: string; memory?: string }; limits?: { memory?: string } };
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  securityContext?: { allowPrivilegeEscalation?: boolean };
}
interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    containers: Container[];
    terminationGracePeriodSeconds?: number;
    securityContext?: { runAsNonRoot?: boolean };
    volumes?: { name: string; configMap?: { name: string } }[];
  };
}
interface DeploymentSpec {
  replicas?: number;
  strategy?: { type: string };
  selector: { matchLabels: Record<string, string> };
  template: PodTemplate;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return entry.endsWith(".yaml") || entry.endsWith(".yml") ? [path] : [];
  });
}

const files = yamlFiles(K8S);
const manifests: Manifest[] = files.flatMap((file) =>
  parseAllDocuments(readFileSync(file, "utf8"))
    .filter((doc) => doc.contents !== null)
    .map((doc) => ({ ...(doc.toJS() as Omit<Manifest, "file">), file: relative(K8S, file) })),
);
const ofKind = (kind: string): Manifest[] => manifests.filter((m) => m.kind === kind && m.file !== "secret.example.yaml");
const deployments = ofKind("Deployment");
const serviceDeployments = deployments.filter((d) => d.metadata.labels?.["app.kubernetes.io/name"] === "cert-anchor");
const specOf = (d: Manifest): DeploymentSpec => d.spec as unknown as DeploymentSpec;
const containerOf = (d: Manifest): Container => {
  const containers = specOf(d).template.spec.containers;
  expect(containers, d.metadata.name).to.have.length(1);
  return containers[0] as Container;
};
const envOf = (d: Manifest, name: string): EnvVar | undefined => containerOf(d).env?.find((e) => e.name === name);
const servicesEnv = (d: Manifest): string => envOf(d, "SERVICES")?.value ?? "";
const configMap = ofKind("ConfigMap").find((m) => m.metadata.name === "cert-anchor-config");
const HPA_TARGETS = ["gateway", "tx-builder", "verifier"];
const SINGLE_REPLICA = ["indexer", "plugin-monitor"];
const SECRET = "cert-anchor-secrets";
const secretTemplate = manifests.find((m) => m.file === "secret.example.yaml") as Manifest;
const natsDeployment = deployments.find((d) => d.metadata.name === "nats") as Manifest;
const natsConfigMap = ofKind("ConfigMap").find((m) => m.metadata.name === "nats-config");
const natsConf = natsConfigMap?.data?.["nats.conf"] ?? "";
/** Moleculer's subject prefix in this deployment (`MOL-<NAMESPACE>`). */
const MOL = `MOL-${configMap?.data?.NAMESPACE}`;
/** The subjects of the published contract in this deployment (`<NAMESPACE>.chain.>`, docs/nats-contract.md). */
const PUBLISHED = publishedChainSubjects(configMap?.data?.NAMESPACE ?? "");
/** The event log's published subjects in this deployment (`<NAMESPACE>.events.>`). */
const PUBLISHED_EVENT_LOG = publishedEventLogSubjects(configMap?.data?.NAMESPACE ?? "");
/** Every NATS user: one per service, and the read-only observer of outside services. */
const NATS_USERS = [...SERVICE_NAMES, OBSERVER_NATS_USER];
const gatewayDeployment = (): Manifest => serviceDeployments.find((d) => servicesEnv(d) === "gateway") as Manifest;
const deploymentOf = (service: string): Manifest => serviceDeployments.find((d) => servicesEnv(d) === service) as Manifest;
/** The environment variable holding a service's NATS password in the NATS pod (nats.conf's `$NATS_PASSWORD_<SERVICE>`). */
const natsPasswordVar = (service: string): string => `NATS_PASSWORD_${service.toUpperCase().replaceAll("-", "_")}`;
/** Secret keys that hold a wallet's or a signing key's mnemonic. */
const MNEMONIC_KEYS = ["user-action-signing-mnemonic", "calendar-mnemonic", "faucet-mnemonic", "log-signing-key"];
/** Environment variables that hold a secret (never a literal value in a manifest). */
const SECRET_VARS = [
  "MONGO_URL",
  "ADMIN_API_KEY",
  "SERVICE_MNEMONIC",
  "USER_ACTION_SIGNING_MNEMONIC",
  "FAUCET_MNEMONIC",
  "NATS_PASSWORD",
  "LOG_SIGNER_KEY",
];
/** The actions the gateway calls across NATS: those of its routes but its own, its answer cache's two reads, the log's files. */
const GATEWAY_CALLS = [
  ...new Set([
    ...ROUTES.map((r) => r.action),
    "indexer.status",
    "indexer.factsAfter",
    "calendar.logCheckpoint",
    "calendar.logTile",
    "calendar.receiptCose",
  ]),
]
  .filter((action) => !action.startsWith("gateway."))
  .sort();
/**
 * The only actions the calendar calls (it holds a hot wallet): the indexer's reads of its issuance machinery
 * (shared/mesh/issuance-over-mesh.ts), its readiness check, its rounds' transactions, whether the verifier serves
 * a round's anchoring (services/calendar.service.ts), and the event log's append (its log's receipts).
 */
const CALENDAR_CALLS = [
  "events.append",
  "indexer.bootstraps",
  "indexer.protocol",
  "indexer.states",
  "indexer.status",
  "indexer.transaction",
  "verifier.byTransactionHash",
];
/** The services whose NATS user may call any backend service's actions. */
const BACKENDS = SERVICE_NAMES.filter((s) => s !== "gateway" && s !== "calendar");
/** The NATS publish permissions of a service's user in nats.conf. */
const natsPublishesOf = (service: string): string => {
  const start = natsConf.indexOf(`user: ${service}\n`);
  const block = natsConf.slice(start, natsConf.indexOf("user: ", start + 1));
  return block.slice(block.indexOf("publish:"), block.indexOf("subscribe:"));
};
const requestsIn = (publishes: string): string[] =>
  [...publishes.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string).filter((subject) => subject.includes(".REQ."));

/** Kubernetes' `$(VAR)` expansion (env values, args): variables defined earlier only; others stay as written. */
function expandRefs(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (ref, name: string | undefined) =>
    name === undefined ? "$" : (vars[name] ?? ref),
  );
}

/**
 * A container's environment as the kubelet builds it: the ConfigMap (envFrom) first, then `env` in order, secret
 * keys read from `secretData`, each `$(VAR)` expanded from what is defined before it.
 */
function renderEnv(d: Manifest, secretData: Record<string, string>): Record<string, string> {
  const c = containerOf(d);
  const vars: Record<string, string> = {};
  for (const from of c.envFrom ?? []) {
    if (from.configMapRef?.name === configMap?.metadata.name) Object.assign(vars, configMap?.data);
  }
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    if (ref !== undefined) {
      const v = ref.name === SECRET ? secretData[ref.key] : undefined;
      if (v !== undefined) vars[e.name] = v;
    } else if (e.valueFrom?.fieldRef !== undefined) vars[e.name] = `${d.metadata.name}-pod`;
    else vars[e.name] = expandRefs(e.value ?? "", vars);
  }
  return vars;
}

/**
 * The Secret the README tells operators to create: the template's keys, each NATS password as
 * `p$(openssl rand -hex 24)`, and a distinct stand-in for each mnemonic.
 */
const exampleSecretData = (): Record<string, string> => ({
  ...secretTemplate.stringData,
  ...Object.fromEntries(NATS_USERS.map((s) => [`nats-password-${s}`, `p${randomBytes(24).toString("hex")}`])),
  ...Object.fromEntries(MNEMONIC_KEYS.map((key) => [key, `${key} ${randomBytes(8).toString("hex")}`])),
});

describe("deploy/k8s manifests", function () {
  it("every file parses as YAML without errors and every document has apiVersion, kind and a name", function () {
    expect(files.length).to.be.greaterThan(5);
    for (const file of files) {
      for (const doc of parseAllDocuments(readFileSync(file, "utf8"))) {
        expect(
          doc.errors.map((e) => e.message),
          file,
        ).to.deep.equal([]);
      }
    }
    for (const m of manifests) {
      if (m.kind === "Kustomization") continue;
      expect(m.apiVersion, m.file).to.be.a("string");
      expect(m.kind, m.file).to.be.a("string");
      expect(m.metadata?.name, m.file).to.be.a("string");
    }
  });

  it("every document is valid against the Kubernetes API schema of its apiVersion and kind (kubernetes-models)", async function () {
    const models = await loadKubeModels();
    const problems: string[] = [];
    let validated = 0;
    for (const file of files) {
      for (const doc of parseAllDocuments(readFileSync(file, "utf8"))) {
        const object = doc.toJS() as { apiVersion?: string; kind?: string; metadata?: { name?: string } } | null;
        if (object === null) continue;
        const where = `${relative(K8S, file)} ${object.kind} ${object.metadata?.name ?? ""}`;
        // kustomize's own file: a build input, not an object the API server sees.
        if (object.apiVersion === "kustomize.config.k8s.io/v1beta1" && object.kind === "Kustomization") continue;
        const model = models.get(`${object.apiVersion} ${object.kind}`);
        if (model === undefined) {
          problems.push(`${where}: no schema loaded for ${object.apiVersion} ${object.kind} (add it to loadKubeModels)`);
          continue;
        }
        try {
          const unknown = validateAgainstSchema(model, object);
          if (unknown.length > 0) problems.push(`${where}: unknown field(s) ${unknown.join(", ")}`);
        } catch (err) {
          problems.push(`${where}: ${(err as Error).message}`);
        }
        validated++;
      }
    }
    expect(problems).to.deep.equal([]);
    expect(validated).to.equal(manifests.filter((m) => m.kind !== "Kustomization").length);
  });

  it("has exactly one Deployment per service, selected by SERVICES, for every service", function () {
    const named = serviceDeployments.map(servicesEnv);
    expect([...named].sort()).to.deep.equal([...SERVICE_NAMES].sort());
    for (const d of serviceDeployments) {
      const service = servicesEnv(d);
      expect(service.split(","), d.metadata.name).to.have.length(1);
      expect(d.metadata.name).to.equal(`cert-anchor-${service}`);
      expect(specOf(d).selector.matchLabels).to.deep.equal({
        "app.kubernetes.io/name": "cert-anchor",
        "app.kubernetes.io/component": service,
      });
      expect(specOf(d).template.metadata.labels).to.include(specOf(d).selector.matchLabels);
    }
  });

  it("every Deployment (NATS included) has liveness and readiness probes and resource requests and a memory limit", function () {
    for (const d of deployments) {
      const c = containerOf(d);
      expect(c.livenessProbe?.httpGet, `${d.metadata.name} liveness`).to.be.an("object");
      expect(c.readinessProbe?.httpGet, `${d.metadata.name} readiness`).to.be.an("object");
      expect(c.resources?.requests?.cpu, d.metadata.name).to.be.a("string");
      expect(c.resources?.requests?.memory, d.metadata.name).to.be.a("string");
      expect(c.resources?.limits?.memory, d.metadata.name).to.be.a("string");
    }
  });

  it("probes hit /live and /ready on the container port that is HEALTH_PORT", function () {
    const healthPort = Number(configMap?.data?.HEALTH_PORT);
    expect(healthPort).to.equal(3001);
    for (const d of serviceDeployments) {
      const c = containerOf(d);
      const portNumber = (port: string | number | undefined): number | undefined =>
        typeof port === "number" ? port : c.ports?.find((p) => p.name === port)?.containerPort;
      expect(c.livenessProbe?.httpGet?.path).to.equal("/live");
      expect(c.readinessProbe?.httpGet?.path).to.equal("/ready");
      expect(portNumber(c.livenessProbe?.httpGet?.port), d.metadata.name).to.equal(healthPort);
      expect(portNumber(c.readinessProbe?.httpGet?.port), d.metadata.name).to.equal(healthPort);
      expect(portNumber(c.startupProbe?.httpGet?.port), d.metadata.name).to.equal(healthPort);
    }
  });

  it("pods carry Prometheus scrape annotations for METRICS_PORT /metrics", function () {
    expect(configMap?.data?.METRICS_PORT).to.equal("3030");
    for (const d of serviceDeployments) {
      expect(specOf(d).template.metadata.annotations, d.metadata.name).to.deep.equal({
        "prometheus.io/scrape": "true",
        "prometheus.io/port": "3030",
        "prometheus.io/path": "/metrics",
      });
      expect(containerOf(d).ports?.find((p) => p.name === "metrics")?.containerPort).to.equal(3030);
    }
  });

  it("reads settings from the ConfigMap and MONGO_URL and keys from the Secret, never as literal values", function () {
    const secretKeys = Object.keys(manifests.find((m) => m.file === "secret.example.yaml")?.stringData ?? {});
    for (const d of serviceDeployments) {
      const c = containerOf(d);
      expect(
        c.envFrom?.map((e) => e.configMapRef?.name),
        d.metadata.name,
      ).to.deep.equal(["cert-anchor-config"]);
      expect(envOf(d, "MONGO_URL")?.valueFrom?.secretKeyRef).to.deep.include({ name: "cert-anchor-secrets", key: "mongo-url" });
      for (const e of c.env ?? []) {
        if (SECRET_VARS.includes(e.name)) expect(e.value, `${d.metadata.name} ${e.name}`).to.equal(undefined);
        const ref = e.valueFrom?.secretKeyRef;
        if (ref !== undefined) expect(secretKeys, `${d.metadata.name} ${e.name}`).to.include(ref.key);
      }
    }
    const gateway = serviceDeployments.find((d) => servicesEnv(d) === "gateway") as Manifest;
    expect(envOf(gateway, "ADMIN_API_KEY")?.valueFrom?.secretKeyRef).to.deep.include({ key: "admin-api-key", optional: false });
  });

  it("the ConfigMap only sets variables the code knows, and no TRANSPORTER (no NATS URL without credentials)", function () {
    const known = new Set(ENV_VARS.map((v) => v.name));
    const keys = Object.keys(configMap?.data ?? {});
    expect(keys.filter((k) => !known.has(k))).to.deep.equal([]);
    for (const secret of ENV_VARS.filter((v) => v.secret === true)) expect(keys, secret.name).to.not.include(secret.name);
    expect(keys).to.not.include("TRANSPORTER");
    expect(Object.values(configMap?.data ?? {}).filter((v) => /nats:\/\//i.test(v))).to.deep.equal([]);
  });

  it("sets only variables the code reads (ENV_VARS), besides helpers that a later value expands as $(VAR)", function () {
    const known = new Set(ENV_VARS.map((v) => v.name));
    for (const d of serviceDeployments) {
      const env = containerOf(d).env ?? [];
      for (const [i, e] of env.entries()) {
        if (known.has(e.name)) continue;
        const expandedLater = env.slice(i + 1).some((later) => (later.value ?? "").includes(`$(${e.name})`));
        expect(expandedLater, `${d.metadata.name} sets ${e.name}, which the code never reads and no later value uses`).to.equal(true);
      }
    }
  });

  it("gives user-state its challenge-signing key and the faucet's wallet under the names the code reads", function () {
    const userState = deploymentOf("user-state");
    expect(envOf(userState, "USER_ACTION_SIGNING_MNEMONIC")?.valueFrom?.secretKeyRef).to.deep.equal({
      name: SECRET,
      key: "user-action-signing-mnemonic",
      optional: false,
    });
    expect(envOf(userState, "FAUCET_MNEMONIC")?.valueFrom?.secretKeyRef).to.deep.include({ name: SECRET, key: "faucet-mnemonic" });
    const secretData = exampleSecretData();
    const config = loadConfig(renderEnv(userState, secretData));
    expect(config.userActionSigningMnemonic).to.equal(secretData["user-action-signing-mnemonic"]);
    expect(config.faucet.mnemonic).to.equal(secretData["faucet-mnemonic"]);
    expect(JSON.stringify(describeConfig(config))).to.not.include(secretData["faucet-mnemonic"]);
  });

  it("gives the calendar a hot wallet of its own, and the pointer owner's mnemonic to no pod", function () {
    const secretData = exampleSecretData();
    const calendar = deploymentOf("calendar");
    // the calendar signs its anchoring transactions with SERVICE_MNEMONIC (docs/merkle-batches.md)
    expect(envOf(calendar, "SERVICE_MNEMONIC")?.valueFrom?.secretKeyRef).to.deep.equal({
      name: SECRET,
      key: "calendar-mnemonic",
      optional: false,
    });
    expect(loadConfig(renderEnv(calendar, secretData)).serviceMnemonic).to.equal(secretData["calendar-mnemonic"]);
    // no other pod has SERVICE_MNEMONIC (the pointer owner's wallet elsewhere), and the Secret holds no key for it
    const withServiceMnemonic = serviceDeployments.filter((d) => envOf(d, "SERVICE_MNEMONIC") !== undefined).map(servicesEnv);
    expect(withServiceMnemonic).to.deep.equal(["calendar"]);
    const keys = Object.keys(secretTemplate.stringData ?? {});
    expect(keys.filter((k) => /mnemonic|signing-key/.test(k)).sort()).to.deep.equal([...MNEMONIC_KEYS].sort());
    // each mnemonic goes to the services that sign with it (the challenge key: user actions, and the webhooks' address proofs)
    const mountedIn = (key: string): string[] =>
      serviceDeployments.filter((d) => (containerOf(d).env ?? []).some((e) => e.valueFrom?.secretKeyRef?.key === key)).map(servicesEnv);
    expect(Object.fromEntries(MNEMONIC_KEYS.map((k) => [k, mountedIn(k)]))).to.deep.equal({
      "user-action-signing-mnemonic": ["events", "user-state"],
      "calendar-mnemonic": ["calendar"],
      "faucet-mnemonic": ["user-state"],
      "log-signing-key": ["calendar"],
    });
    // the pod the Ingress reaches holds its own NATS password, the store's URL and the admin key: no mnemonic
    const gatewayKeys = (containerOf(gatewayDeployment()).env ?? []).flatMap((e) => e.valueFrom?.secretKeyRef?.key ?? []);
    expect(gatewayKeys.sort()).to.deep.equal(["admin-api-key", "calendar-api-keys", "mongo-url", "nats-password-gateway"]);
  });

  it("every service Deployment connects as its own NATS user, with its password from the Secret and NODE_ID <service>.<pod>", function () {
    const natsService = ofKind("Service").find((s) => s.metadata.name === "nats") as Manifest;
    const clientPort = (natsService.spec?.ports as { name: string; port: number }[]).find((p) => p.name === "client")?.port;
    expect(clientPort).to.equal(4222);
    const secretData = exampleSecretData();
    for (const d of serviceDeployments) {
      const name = d.metadata.name;
      const service = servicesEnv(d);
      expect(envOf(d, "NATS_USER")?.value, name).to.equal(service);
      expect(envOf(d, "NATS_PASSWORD")?.valueFrom?.secretKeyRef, name).to.deep.equal({ name: SECRET, key: `nats-password-${service}` });
      expect(envOf(d, "TRANSPORTER")?.value, name).to.equal(`nats://$(NATS_USER):$(NATS_PASSWORD)@nats:${clientPort}`);
      expect(envOf(d, "POD_NAME")?.valueFrom?.fieldRef, name).to.deep.equal({ fieldPath: "metadata.name" });
      expect(envOf(d, "NODE_ID")?.value, name).to.equal(`${service}.$(POD_NAME)`);
      // As the kubelet renders it: credentials substituted (so both are listed before TRANSPORTER), host = NATS Service.
      const env = renderEnv(d, secretData);
      const url = new URL(env.TRANSPORTER ?? "");
      expect([url.protocol, url.username, url.password, url.hostname, url.port], name).to.deep.equal([
        "nats:",
        service,
        secretData[`nats-password-${service}`],
        natsService.metadata.name,
        String(clientPort),
      ]);
      // The code accepts the rendered environment and never shows the password; the node ID is one NATS token more.
      const config = loadConfig(env);
      expect(config.transporter, name).to.equal(env.TRANSPORTER);
      expect(config.nodeId, name).to.equal(`${service}.${name}-pod`);
      expect(JSON.stringify(describeConfig(config)), name).to.not.include(secretData[`nats-password-${service}`]);
    }
  });

  it("NATS reads nats.yaml's config, with one user per service (and the observer) whose password only it and that service read", function () {
    const c = containerOf(natsDeployment);
    expect(c.args).to.deep.equal(["--config", "/etc/nats/nats.conf"]);
    const mount = c.volumeMounts?.find((m) => m.mountPath === "/etc/nats");
    const volume = specOf(natsDeployment).template.spec.volumes?.find((v) => v.name === mount?.name);
    expect(volume?.configMap?.name).to.equal(natsConfigMap?.metadata.name);
    expect(Object.keys(natsConfigMap?.data ?? {})).to.deep.equal(["nats.conf"]);
    // exactly one password per user, each from its own key (in any order)
    const byFirst = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
    expect(c.env?.map((e) => [e.name, e.valueFrom?.secretKeyRef?.key]).sort(byFirst)).to.deep.equal(
      NATS_USERS.map((s) => [natsPasswordVar(s), `nats-password-${s}`]).sort(byFirst),
    );
    const users = [...natsConf.matchAll(/user: (\S+)\s+password: \$(\S+)/g)].map((m) => [m[1], m[2]]);
    expect(users.sort(byFirst)).to.deep.equal(NATS_USERS.map((s) => [s, natsPasswordVar(s)]).sort(byFirst));
    // no service Deployment connects as the observer
    expect(serviceDeployments.map((d) => envOf(d, "NATS_USER")?.value)).to.not.include(OBSERVER_NATS_USER);
    expect(natsConf).to.not.match(/^\s*(no_auth_user|accounts|token)\b/m);
    expect(natsConf).to.match(/^\s*port: 4222$/m);
    // every subject names Moleculer's prefix of this deployment's NAMESPACE, but the published contract's (the
    // indexer's and the events service's publications, the observer's subscriptions) and the observer's refusal of
    // every publication
    const subjects = [...natsConf.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
    expect(subjects.length).to.be.greaterThan(100);
    expect(subjects.filter((subject) => !subject.startsWith(`${MOL}.`)).sort()).to.deep.equal(
      [PUBLISHED, PUBLISHED, PUBLISHED_EVENT_LOG, PUBLISHED_EVENT_LOG, ">"].sort(),
    );
    const service = ofKind("Service").find((s) => s.metadata.name === "nats") as Manifest;
    expect(service.spec?.ports).to.deep.equal([{ name: "client", port: 4222, targetPort: "client" }]);
    expect(c.ports?.find((p) => p.name === "client")?.containerPort).to.equal(4222);
  });

  it("the gateway's NATS user may send exactly the requests of its routes and of its answer cache", function () {
    const publishes = natsPublishesOf("gateway");
    const requests = requestsIn(publishes);
    const expected = GATEWAY_CALLS.map((action) => `${MOL}.REQ.${action.split(".")[0]}.*.${action}`);
    expect(requests.filter((r) => !r.startsWith(`${MOL}.REQ.gateway.`)).sort()).to.deep.equal(expected.sort());
    // nothing internal: no action of another service outside the route table, no Moleculer $node action, no event
    expect(publishes).to.not.match(/\$node|\.EVENT\.|tx-builder\.upgrade|tx-builder\.burnStates|\.>"/);
  });

  it("the calendar's NATS user may send only the indexer and verifier requests it needs, and only the gateway may call the calendar", function () {
    expect(requestsIn(natsPublishesOf("calendar")).sort()).to.deep.equal(
      CALENDAR_CALLS.map((a) => `${MOL}.REQ.${a.split(".")[0]}.*.${a}`).sort(),
    );
    expect(natsPublishesOf("calendar")).to.not.match(/\$node|\.EVENT\.|\.>"/);
    const callers = SERVICE_NAMES.filter((s) => requestsIn(natsPublishesOf(s)).some((r) => r.startsWith(`${MOL}.REQ.calendar.`)));
    expect(callers).to.deep.equal(["gateway"]);
  });

  it("only the indexer may publish the published chain subjects, only the events service the event log's; the observer may only subscribe to them", function () {
    const allowed = (block: string): string[] => [...block.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
    const publishers = NATS_USERS.filter((u) => allowed(natsPublishesOf(u)).includes(PUBLISHED));
    expect(publishers).to.deep.equal(["indexer"]);
    expect(NATS_USERS.filter((u) => allowed(natsPublishesOf(u)).includes(PUBLISHED_EVENT_LOG))).to.deep.equal(["events"]);
    // nobody publishes beyond Moleculer's subjects and its own published ones
    for (const u of SERVICE_NAMES)
      expect(
        allowed(natsPublishesOf(u)).filter((s) => !s.startsWith(`${MOL}.`) && s !== PUBLISHED && s !== PUBLISHED_EVENT_LOG),
        u,
      ).to.deep.equal([]);
    // the observer's whole block: publish nothing, subscribe to the published subjects
    const start = natsConf.indexOf(`user: ${OBSERVER_NATS_USER}\n`);
    const next = natsConf.indexOf("user: ", start + 1);
    const block = natsConf.slice(start, next === -1 ? natsConf.indexOf("}\n      ]", start) : next);
    const publish = block.slice(block.indexOf("publish:"), block.indexOf("subscribe:"));
    expect(publish).to.not.match(/allow/);
    expect(allowed(publish)).to.deep.equal([">"]);
    expect(allowed(block.slice(block.indexOf("subscribe:")))).to.deep.equal([PUBLISHED, PUBLISHED_EVENT_LOG]);
  });

  it("the Secret template has a NATS password per service and the observer's, that nats-server reads as text, and its kubectl line creates every key", function () {
    const keys = Object.keys(secretTemplate.stringData ?? {});
    const natsKeys = NATS_USERS.map((s) => `nats-password-${s}`);
    expect(keys).to.include.members(natsKeys);
    // a letter first (nats-server parses `123456` as a number), then URL-safe characters only
    for (const key of natsKeys) expect(secretTemplate.stringData?.[key], key).to.match(/^[A-Za-z][A-Za-z0-9_-]*$/);
    const created = (text: string): string[] => [...text.matchAll(/--from-literal=([a-z-]+)=/g)].map((m) => m[1] as string);
    const template = readFileSync(join(K8S, "secret.example.yaml"), "utf8");
    expect(created(template).sort(), "secret.example.yaml").to.deep.equal([...keys].sort());
    for (const key of natsKeys) expect(template).to.include(`--from-literal=${key}="p$(openssl rand -hex 24)"`);
    const readme = readFileSync(join(ROOT, "deploy", "README.md"), "utf8");
    expect(created(readme).sort(), "deploy/README.md").to.deep.equal([...keys].sort());
  });

  it("gives every pod a grace period longer than SHUTDOWN_TIMEOUT_MS plus its preStop pause", function () {
    const shutdownMs = Number(configMap?.data?.SHUTDOWN_TIMEOUT_MS);
    expect(shutdownMs).to.be.greaterThan(0);
    for (const d of serviceDeployments) {
      const graceMs = (specOf(d).template.spec.terminationGracePeriodSeconds ?? 30) * 1000;
      const command = containerOf(d).lifecycle?.preStop?.exec?.command;
      const preStopMs = command?.[0] === "sleep" ? Number(command[1]) * 1000 : 0;
      expect(graceMs, d.metadata.name).to.be.greaterThan(shutdownMs + preStopMs);
    }
  });

  it("runs containers as non-root without privilege escalation", function () {
    for (const d of deployments) {
      expect(specOf(d).template.spec.securityContext?.runAsNonRoot, d.metadata.name).to.equal(true);
      expect(containerOf(d).securityContext?.allowPrivilegeEscalation, d.metadata.name).to.equal(false);
    }
  });

  it("autoscales exactly the stateless services, whose Deployments leave replicas to the HPA", function () {
    const hpas = ofKind("HorizontalPodAutoscaler");
    const deploymentNames = new Set(deployments.map((d) => d.metadata.name));
    const targets = hpas.map((h) => (h.spec?.scaleTargetRef as { kind: string; name: string }) ?? { kind: "", name: "" });
    for (const t of targets) {
      expect(t.kind).to.equal("Deployment");
      expect(deploymentNames.has(t.name), t.name).to.equal(true);
    }
    expect(targets.map((t) => t.name).sort()).to.deep.equal(HPA_TARGETS.map((s) => `cert-anchor-${s}`).sort());
    for (const h of hpas) expect(h.spec?.minReplicas as number).to.be.at.least(2);
    for (const d of serviceDeployments) {
      if (HPA_TARGETS.includes(servicesEnv(d))) expect(specOf(d).replicas, d.metadata.name).to.equal(undefined);
    }
  });

  it("keeps the indexer and plugin-monitor at one replica that never overlaps with its successor", function () {
    for (const name of SINGLE_REPLICA) {
      const d = serviceDeployments.find((x) => servicesEnv(x) === name) as Manifest;
      expect(specOf(d).replicas, name).to.equal(1);
      expect(specOf(d).strategy?.type, name).to.equal("Recreate");
    }
  });

  it("network policies: deny ingress by default; open the gateway's HTTP port, NATS to the services, metrics to monitoring", function () {
    interface Selector {
      matchLabels?: Record<string, string>;
      matchExpressions?: unknown[];
    }
    interface Peer {
      podSelector?: Selector;
      namespaceSelector?: Selector;
      ipBlock?: unknown;
    }
    interface PolicySpec {
      podSelector: Selector;
      policyTypes: string[];
      ingress?: { from?: Peer[]; ports?: { protocol?: string; port: number | string }[] }[];
    }
    const policies = ofKind("NetworkPolicy");
    expect(new Set(policies.map((p) => p.file))).to.deep.equal(new Set(["network-policies.yaml"]));
    const specOfPolicy = (p: Manifest): PolicySpec => p.spec as unknown as PolicySpec;
    /** matchLabels only: every label must match (an empty selector selects every pod). */
    const selects = (selector: Selector, labels: Record<string, string>): boolean => {
      expect(selector.matchExpressions, "matchExpressions are not used (nor checked here)").to.equal(undefined);
      return Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
    };
    const podLabels = deployments.map((d) => ({ name: d.metadata.name, labels: specOf(d).template.metadata.labels }));
    const selected = (selector: Selector): string[] => podLabels.filter((p) => selects(selector, p.labels)).map((p) => p.name);
    const serviceNames = serviceDeployments.map((d) => d.metadata.name).sort();
    const describePeer = (peer: Peer): string => {
      expect(peer.ipBlock, "ipBlock").to.equal(undefined);
      if (peer.namespaceSelector !== undefined) {
        const namespace = `namespace ${JSON.stringify(peer.namespaceSelector.matchLabels)}`;
        // both in one peer: those pods of those namespaces
        return peer.podSelector === undefined ? namespace : `pods ${JSON.stringify(peer.podSelector.matchLabels)} of ${namespace}`;
      }
      const pods = selected(peer.podSelector ?? {}).sort();
      if (pods.length === 0) return `pods ${JSON.stringify(peer.podSelector?.matchLabels)}`; // none of ours: outside services
      return JSON.stringify(pods) === JSON.stringify(serviceNames) ? "the service pods" : `pods ${pods.join(",")}`;
    };

    // Ingress only (egress stays open), and each policy selects pods that exist.
    for (const p of policies) {
      expect(specOfPolicy(p).policyTypes, p.metadata.name).to.deep.equal(["Ingress"]);
      expect(selected(specOfPolicy(p).podSelector), p.metadata.name).to.not.deep.equal([]);
    }
    const denyAll = policies.filter((p) => Object.keys(specOfPolicy(p).podSelector).length === 0);
    expect(denyAll.map((p) => specOfPolicy(p).ingress ?? [])).to.deep.equal([[]]);

    // What each pod accepts: the union of the rules of every policy that selects it.
    const accepted: Record<string, string[]> = {};
    for (const { name, labels } of podLabels) {
      accepted[name] = policies
        .filter((p) => selects(specOfPolicy(p).podSelector, labels))
        .flatMap((p) => specOfPolicy(p).ingress ?? [])
        .flatMap((rule) =>
          (rule.ports ?? [{ port: "any" }]).map((port) => {
            expect(port.protocol ?? "TCP").to.equal("TCP");
            const from = rule.from === undefined ? "anywhere" : rule.from.map(describePeer).join(" or ");
            return `${port.port} from ${from}`;
          }),
        )
        .sort();
    }
    const gateway = serviceDeployments.find((d) => servicesEnv(d) === "gateway") as Manifest;
    const httpPort = containerOf(gateway).ports?.find((p) => p.name === "http")?.containerPort;
    expect(httpPort).to.equal(Number(configMap?.data?.PORT));
    const metricsPort = Number(configMap?.data?.METRICS_PORT);
    const metrics = `${metricsPort} from namespace {"kubernetes.io/metadata.name":"monitoring"}`;
    const natsPort = containerOf(natsDeployment).ports?.find((p) => p.name === "client")?.containerPort;
    // the service pods, and outside services' pods labelled to follow the published chain events as the observer
    const observers = 'pods {"cert-anchor/nats-observer":"true"}';
    const expected: Record<string, string[]> = { nats: [`${natsPort} from the service pods or ${observers}`] };
    for (const d of serviceDeployments)
      expect(containerOf(d).ports?.find((p) => p.name === "metrics")?.containerPort).to.equal(metricsPort);
    const ingressController =
      'pods {"app.kubernetes.io/name":"ingress-nginx","app.kubernetes.io/component":"controller"} of namespace {"kubernetes.io/metadata.name":"ingress-nginx"}';
    for (const name of serviceNames)
      expected[name] = name === gateway.metadata.name ? [`${httpPort} from ${ingressController}`, metrics].sort() : [metrics];
    expect(accepted).to.deep.equal(expected);
  });

  it("puts the Ingress (ingress-nginx) in front of the gateway, whose client IP is the last X-Forwarded-For entry it writes", function () {
    const ingresses = ofKind("Ingress");
    expect(ingresses.map((i) => i.file)).to.deep.equal(["ingress.yaml"]);
    const spec = ingresses[0]?.spec as {
      ingressClassName: string;
      rules: { http: { paths: { backend: { service: { name: string; port: { name: string } } } }[] } }[];
    };
    // the class whose controller network-policies.yaml admits (the ingress-nginx chart's labels and namespace)
    expect(spec.ingressClassName).to.equal("nginx");
    const backends = spec.rules.flatMap((r) => r.http.paths.map((p) => p.backend.service));
    const svc = ofKind("Service").find((s) => s.metadata.name === "cert-anchor-gateway") as Manifest;
    expect(backends).to.deep.equal([{ name: svc.metadata.name, port: { name: (svc.spec?.ports as { name: string }[])[0]?.name } }]);
    // one proxy of ours (the controller), and no other way in: the gateway trusts exactly one X-Forwarded-For hop
    const gateway = gatewayDeployment();
    expect(envOf(gateway, "TRUST_PROXY")?.value).to.equal("1");
    expect(configMap?.data?.TRUST_PROXY, "TRUST_PROXY is the gateway's, beside its network policy").to.equal(undefined);
    expect(loadConfig(renderEnv(gateway, exampleSecretData())).trustProxy).to.equal(1);
  });

  it("lets the largest body a route accepts through the Ingress, and gives gateway and tx-builder the memory to parse it", function () {
    // the limits the code enforces are the ones docs/merkle-batches.md states
    const limits = readFileSync(join(ROOT, "docs", "merkle-batches.md"), "utf8");
    expect(limits).to.include(`JSON up to ${BATCH_JSON_BODY_LIMIT_BYTES.toLocaleString("en-US")} bytes`);
    expect(limits).to.include(`up to ${BATCH_BINARY_BODY_LIMIT_BYTES.toLocaleString("en-US")} bytes`);
    const bytes = (quantity: string): number => {
      const m = /^(\d+)(Mi|Gi|m)$/.exec(quantity);
      expect(m, quantity).to.not.equal(null);
      return Number(m?.[1]) * (m?.[2] === "Gi" ? 2 ** 30 : 2 ** 20);
    };
    const annotations = (ofKind("Ingress")[0]?.metadata as { annotations?: Record<string, string> }).annotations ?? {};
    expect(bytes(annotations["nginx.ingress.kubernetes.io/proxy-body-size"] ?? "1m")).to.be.at.least(BATCH_JSON_BODY_LIMIT_BYTES);
    // Peak RSS over a process's idle RSS per byte of the largest body, measured (deploy/README.md "Memory limits"):
    // the gateway 605 MiB for 68 MB of JSON, tx-builder 421 MiB for 32 MB of hashes (streamed to it however sent).
    const perByte = { gateway: 9.5, "tx-builder": 14 };
    const idle = 256 * 2 ** 20;
    const limitOf = (service: string): number => bytes(containerOf(deploymentOf(service)).resources?.limits?.memory ?? "0Mi");
    expect(limitOf("gateway")).to.be.at.least(idle + perByte.gateway * BATCH_JSON_BODY_LIMIT_BYTES);
    expect(limitOf("tx-builder")).to.be.at.least(idle + perByte["tx-builder"] * BATCH_BINARY_BODY_LIMIT_BYTES);
  });

  it("exposes the gateway through a Service that selects the gateway pods' http port", function () {
    const svc = ofKind("Service").find((s) => s.metadata.name === "cert-anchor-gateway") as Manifest;
    const gateway = serviceDeployments.find((d) => servicesEnv(d) === "gateway") as Manifest;
    expect(specOf(gateway).template.metadata.labels).to.include(svc.spec?.selector as Record<string, string>);
    const target = (svc.spec?.ports as { targetPort: string }[])[0]?.targetPort;
    expect(containerOf(gateway).ports?.find((p) => p.name === target)?.containerPort).to.equal(Number(configMap?.data?.PORT));
  });

  it("lists every manifest except the Secret template in kustomization.yaml", function () {
    const kustomization = manifests.find((m) => m.kind === "Kustomization") as unknown as { resources: string[] };
    const expected = files.map((f) => relative(K8S, f)).filter((f) => f !== "kustomization.yaml" && f !== "secret.example.yaml");
    expect([...kustomization.resources].sort()).to.deep.equal(expected.sort());
  });
});

/** A kubernetes-models class: its apiVersion/kind and the validator its prototype carries (the schema of that kind). */
interface KubeModel {
  apiVersion: string;
  kind: string;
  prototype: { validate(): void };
}

/**
 * The kubernetes-models classes of every kind deploy/k8s uses. The package is ESM-only (its exports have no
 * `require` condition), so it is loaded with import() rather than a static import, which would compile to require().
 */
async function loadKubeModels(): Promise<Map<string, KubeModel>> {
  const models: KubeModel[] = await Promise.all([
    import("kubernetes-models/apps/v1/Deployment").then((m) => m.Deployment),
    import("kubernetes-models/v1/Service").then((m) => m.Service),
    import("kubernetes-models/v1/ConfigMap").then((m) => m.ConfigMap),
    import("kubernetes-models/v1/Secret").then((m) => m.Secret),
    import("kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler").then((m) => m.HorizontalPodAutoscaler),
    import("kubernetes-models/policy/v1/PodDisruptionBudget").then((m) => m.PodDisruptionBudget),
    import("kubernetes-models/networking.k8s.io/v1/NetworkPolicy").then((m) => m.NetworkPolicy),
    import("kubernetes-models/networking.k8s.io/v1/Ingress").then((m) => m.Ingress),
  ]);
  return new Map(models.map((m) => [`${m.apiVersion} ${m.kind}`, m]));
}

/**
 * Validates `doc` against its kind's schema (throws the validator's message) and returns its unknown fields.
 * The compiled schemas check the fields they know and ignore the rest, while the API server rejects unknown
 * fields (kubectl's strict field validation): so the validator runs on a view of the document that records each
 * property the schema reads, and every property of a checked object that the schema never read is unknown.
 * `validate` is called on that view directly, not on `new Kind(doc)`, whose constructor would copy every field
 * (reading them all) and fill in a missing apiVersion/kind.
 */
function validateAgainstSchema(model: KubeModel, doc: object): string[] {
  const read = new Map<object, Set<PropertyKey>>();
  const view = (value: unknown): unknown =>
    value === null || typeof value !== "object"
      ? value
      : new Proxy(value, {
          get(target, key, receiver) {
            read.set(target, (read.get(target) ?? new Set()).add(key));
            return view(Reflect.get(target, key, receiver));
          },
        });
  model.prototype.validate.call(view(doc));
  const unknown: string[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}/${i}`));
    else if (value !== null && typeof value === "object") {
      // An object the schema never looked into is free-form (the schema says nothing about its fields).
      const seen = read.get(value);
      for (const [key, v] of Object.entries(value)) {
        if (seen !== undefined && !seen.has(key)) unknown.push(`${path}/${key}`);
        walk(v, `${path}/${key}`);
      }
    }
  };
  walk(doc, "");
  return unknown;
}

/**
 * nats-server on a loopback port it picks itself (no monitoring port), with `args` added and `env` in its environment;
 * resolves once it accepts clients.
 */
function startNats(args: string[], env: Record<string, string>): Promise<{ port: number; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.env.NATS_SERVER_BIN ?? "nats-server", [...args, "-a", "127.0.0.1", "-p", "-1", "-m", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    let output = "";
    const onOutput = (chunk: Buffer): void => {
      output += chunk.toString();
      const port = /Listening for client connections on [^\s]+:(\d+)/.exec(output)?.[1];
      if (port !== undefined && output.includes("Server is ready")) resolve({ port: Number(port), child });
    };
    child.stdout.on("data", onOutput);
    child.stderr.on("data", onOutput);
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`nats-server exited (${code}):\n${output}`)));
  });
}

/** A raw NATS client of one service's user, recording the permission violations the server reports to it. */
interface NatsClient {
  nc: NatsConnection;
  /** the subjects of the publications and subscriptions the server refused, in order */
  refused: string[];
}

describe("deploy/k8s NATS users and permissions against a real nats-server running nats.yaml's config", function () {
  this.timeout(60_000);
  let nats: { port: number; child: ChildProcess } | undefined;
  let confDir: string | undefined;
  const clients: NatsConnection[] = [];
  const brokers: ServiceBroker[] = [];
  const secretData = exampleSecretData();
  const servers = (): string => `127.0.0.1:${nats?.port}`;

  before(async function () {
    requireNatsServer(this);
    // nats.yaml as the kubelet starts it: its ConfigMap as the file, its environment from the Secret; a loopback port
    confDir = mkdtempSync(join(tmpdir(), "nats-conf-"));
    const file = join(confDir, "nats.conf");
    writeFileSync(file, natsConf);
    const args = (containerOf(natsDeployment).args ?? []).map((a) => (a === "/etc/nats/nats.conf" ? file : a));
    nats = await startNats(args, renderEnv(natsDeployment, secretData));
  });

  after(async function () {
    for (const b of brokers) await b.stop();
    for (const nc of clients) if (!nc.isClosed()) await nc.close();
    if (nats !== undefined && nats.child.exitCode === null) {
      const exited = new Promise((done) => nats?.child.once("exit", done));
      nats.child.kill("SIGTERM");
      await exited;
    }
    if (confDir !== undefined) rmSync(confDir, { recursive: true, force: true });
  });

  const clientOf = async (service: string): Promise<NatsClient> => {
    const nc = await connect({ servers: servers(), reconnect: false, user: service, pass: secretData[`nats-password-${service}`] });
    clients.push(nc);
    const client: NatsClient = { nc, refused: [] };
    void (async () => {
      for await (const status of nc.status()) {
        // nats.js reads the subject out of the server's "Permissions Violation for Publish to …"
        const subject = (status as { permissionContext?: { subject: string } }).permissionContext?.subject;
        if (subject !== undefined) client.refused.push(subject);
      }
    })();
    return client;
  };
  let settles = 0;
  /**
   * Waits until the client has heard from the server about everything it sent so far: the server answers in order,
   * so once it has refused a sentinel publication sent last, every refusal before it is recorded (the sentinel not).
   */
  const settle = async (client: NatsClient): Promise<void> => {
    const sentinel = `SETTLE.${++settles}`;
    client.nc.publish(sentinel);
    await pollFor(() => client.refused.includes(sentinel));
    client.refused.splice(client.refused.indexOf(sentinel), 1);
  };
  /** A subscription the server accepted: its messages' subjects, in order. */
  const listen = async (client: NatsClient, subject: string): Promise<string[]> => {
    const received: string[] = [];
    client.nc.subscribe(subject, { callback: (err, msg) => void (err === null ? received.push(msg.subject) : undefined) });
    await settle(client);
    expect(client.refused, `subscription to ${subject}`).to.not.include(subject);
    return received;
  };
  /** Publishes each subject, and waits for the server's answers to them. */
  const publish = async (client: NatsClient, subjects: readonly string[]): Promise<void> => {
    for (const subject of subjects) client.nc.publish(subject, new Uint8Array([1]));
    await settle(client);
  };

  it("refuses a client without credentials, with a wrong password, or with another service's password", async function () {
    const attempts = [
      {},
      { user: "gateway", pass: "p-wrong-password" },
      { user: "gateway", pass: secretData["nats-password-tx-builder"] },
      { token: secretData["nats-password-gateway"] },
    ];
    for (const auth of attempts) {
      const error = await connect({ servers: servers(), reconnect: false, ...auth }).then(
        async (nc) => (await nc.close(), undefined),
        (err: Error) => err,
      );
      expect(error?.message, JSON.stringify(auth)).to.match(/authorization/i);
    }
    for (const user of NATS_USERS) await clientOf(user);
  });

  it("lets the gateway send the requests of its routes, and drops its requests for internal actions, $node actions and events", async function () {
    const gateway = await clientOf("gateway");
    const txBuilder = await clientOf("tx-builder");
    const node = "tx-builder.cert-anchor-tx-builder-pod";
    const received = await listen(txBuilder, `${MOL}.REQ.${node}.>`);
    // every action the gateway calls, to a node of its service: none refused
    await publish(
      gateway,
      GATEWAY_CALLS.map((action) => {
        const service = action.split(".")[0] as string;
        return `${MOL}.REQ.${service}.cert-anchor-${service}-pod.${action}`;
      }),
    );
    expect(gateway.refused).to.deep.equal([]);
    const denied = [
      `${MOL}.REQ.${node}.tx-builder.upgrade`, // internal: the library's admin transactions
      `${MOL}.REQ.${node}.tx-builder.undeploy`,
      `${MOL}.REQ.${node}.tx-builder.burnStates`, // internal: user-state's signed OPT_OUT
      `${MOL}.REQ.${node}.$node.options`, // Moleculer's: the broker's options, its NATS password included
      `${MOL}.REQ.${node}`, // Moleculer's own subject for any action of the node
      `${MOL}.REQ.indexer.cert-anchor-indexer-pod.indexer.protocol`,
      `${MOL}.REQ.verifier.cert-anchor-verifier-pod.verifier.sync`,
      `${MOL}.EVENT.verifier.cert-anchor-verifier-pod`, // a forged chain.block
      `${MOL}.REQ.gateway.cert-anchor-gateway-pod.indexer.protocol`, // a request to itself, posing as the indexer
    ];
    await publish(gateway, [...denied, `${MOL}.REQ.${node}.tx-builder.build`]);
    expect(gateway.refused).to.deep.equal(denied);
    // in order on one connection: the refused ones never reached tx-builder, the allowed one after them did
    await pollFor(() => received.length > GATEWAY_CALLS.filter((a) => a.startsWith("tx-builder.")).length);
    expect(received.slice(-1)).to.deep.equal([`${MOL}.REQ.${node}.tx-builder.build`]);
    expect(
      received.filter((subject) => !subject.endsWith(".tx-builder.build") && /upgrade|undeploy|burnStates|\$node/.test(subject)),
    ).to.deep.equal([]);
  });

  it("lets each service listen only to what is sent to its own nodes and to all", async function () {
    const gateway = await clientOf("gateway");
    await listen(gateway, `${MOL}.REQ.gateway.cert-anchor-gateway-pod.>`);
    await listen(gateway, `${MOL}.RES.gateway.cert-anchor-gateway-pod`);
    await listen(gateway, `${MOL}.INFO`);
    const others = [`${MOL}.REQ.tx-builder.*.>`, `${MOL}.RES.user-state.*`, `${MOL}.EVENT.verifier.*`, `${MOL}.>`, ">"];
    for (const subject of others) gateway.nc.subscribe(subject);
    await settle(gateway);
    expect(gateway.refused).to.deep.equal(others);
  });

  it("lets a backend service call any backend action on a node of that service only, and only the indexer send events", async function () {
    const txBuilder = await clientOf("tx-builder");
    const indexer = await clientOf("indexer");
    await publish(txBuilder, [`${MOL}.REQ.indexer.cert-anchor-indexer-pod.indexer.protocol`, `${MOL}.RES.gateway.cert-anchor-gateway-pod`]);
    expect(txBuilder.refused).to.deep.equal([]);
    // a node that announced an indexer it is not (the gateway's) is never sent the request; a tx-builder sends no event
    const posing = [
      `${MOL}.REQ.gateway.cert-anchor-gateway-pod.indexer.protocol`,
      `${MOL}.REQ.indexer.cert-anchor-indexer-pod.$node.options`,
    ];
    await publish(txBuilder, [...posing, `${MOL}.EVENT.verifier.cert-anchor-verifier-pod`]);
    expect(txBuilder.refused).to.deep.equal([...posing, `${MOL}.EVENT.verifier.cert-anchor-verifier-pod`]);
    await publish(indexer, [`${MOL}.EVENT.verifier.cert-anchor-verifier-pod`]);
    expect(indexer.refused).to.deep.equal([]);
    // the calendar reaches the indexer's actions it needs and nothing else; no backend reaches the calendar
    const calendar = await clientOf("calendar");
    await publish(
      calendar,
      CALENDAR_CALLS.map((action) => {
        const service = action.split(".")[0]!;
        return `${MOL}.REQ.${service}.cert-anchor-${service}-pod.${action}`;
      }),
    );
    expect(calendar.refused).to.deep.equal([]);
    const beyond = [
      `${MOL}.REQ.indexer.cert-anchor-indexer-pod.indexer.factsAfter`,
      `${MOL}.REQ.stats.cert-anchor-stats-pod.stats.probe`,
      `${MOL}.REQ.tx-builder.cert-anchor-tx-builder-pod.tx-builder.build`,
      `${MOL}.EVENT.verifier.cert-anchor-verifier-pod`,
    ];
    await publish(calendar, beyond);
    expect(calendar.refused).to.deep.equal(beyond);
    await publish(txBuilder, [`${MOL}.REQ.calendar.cert-anchor-calendar-pod.calendar.submit`]);
    expect(txBuilder.refused.slice(-1)).to.deep.equal([`${MOL}.REQ.calendar.cert-anchor-calendar-pod.calendar.submit`]);
  });

  it("lets only the indexer publish the published chain subjects, only the events service the event log's, and the observer only listen to them", async function () {
    const namespace = configMap?.data?.NAMESPACE as string;
    const block = publishedSubject(namespace, "chain.block");
    const anchored = eventLogSubject(namespace, "certificate.anchored");
    const observer = await clientOf(OBSERVER_NATS_USER);
    const received = await listen(observer, PUBLISHED);
    const events = await listen(observer, PUBLISHED_EVENT_LOG);
    // nothing of Moleculer's, nothing beyond the published subjects
    const beyond = [
      `${MOL}.>`,
      `${MOL}.EVENT.verifier.*`,
      `${MOL}.INFO`,
      `${MOL}.REQ.indexer.*.>`,
      `${namespace}.>`,
      `${namespace}.*`,
      ">",
    ];
    for (const subject of beyond) observer.nc.subscribe(subject);
    await settle(observer);
    expect(observer.refused).to.deep.equal(beyond);
    // it publishes nothing: neither a forged chain event nor a Moleculer packet
    observer.refused.length = 0;
    await publish(observer, [block, anchored, `${MOL}.EVENT.verifier.cert-anchor-verifier-pod`, `${MOL}.DISCOVER`]);
    expect(observer.refused).to.deep.equal([block, anchored, `${MOL}.EVENT.verifier.cert-anchor-verifier-pod`, `${MOL}.DISCOVER`]);
    // no service but the indexer may publish on the chain's subjects, none but the events service on the event log's
    for (const service of SERVICE_NAMES) {
      const client = await clientOf(service);
      await publish(client, [block, anchored]);
      const refused = [...(service === "indexer" ? [] : [block]), ...(service === "events" ? [] : [anchored])];
      expect(client.refused, service).to.deep.equal(refused);
    }
    await pollFor(() => received.length === 1 && events.length === 1);
    const indexer = await clientOf("indexer");
    await publish(indexer, [publishedSubject(namespace, "chain.rollback")]);
    expect(indexer.refused).to.deep.equal([]);
    await pollFor(() => received.length === 2);
    expect(received).to.deep.equal([block, publishedSubject(namespace, "chain.rollback")]);
    expect(events).to.deep.equal([anchored]);
  });

  /**
   * The broker options the start script builds in a service's pod (its rendered environment through loadConfig and
   * createBrokerOptions), with TRANSPORTER pointed at the local server instead of `nats` and local ports.
   */
  const brokerOptionsOf = (service: string, namespace: string): BrokerOptions => {
    const env = renderEnv(deploymentOf(service), secretData);
    const url = new URL(env.TRANSPORTER ?? "");
    url.hostname = "127.0.0.1";
    url.port = String(nats?.port);
    const local = { HOST: "127.0.0.1", HEALTH_PORT: "0", ENABLE_METRICS: "false", LOG_LEVEL: "silent" };
    // NAMESPACE stays the ConfigMap's: the permissions name it
    expect(env.NAMESPACE).to.equal(namespace);
    const config = loadConfig({ ...env, ...local, TRANSPORTER: url.toString() });
    return createBrokerOptions(config, { overrides: { skipProcessEventRegistration: true } });
  };

  it("carries Moleculer calls and events between brokers configured as every Deployment, and refuses the gateway's internal calls", async function () {
    const namespace = configMap?.data?.NAMESPACE as string;
    const calls: string[] = [];
    const blocks: string[] = [];
    // a stand-in of each service with the actions used here, and a chain.block handler like the real ones
    const standIn = (service: string): ServiceBroker => {
      const broker = new ServiceBroker(brokerOptionsOf(service, namespace));
      brokers.push(broker);
      const names = { "tx-builder": ["build", "upgrade"], verifier: ["byHash"], indexer: ["protocol", "status"], calendar: ["submit"] }[
        service
      ] ?? ["probe"];
      broker.createService({
        name: service,
        actions: Object.fromEntries(names.map((n) => [n, () => (calls.push(`${service}.${n}`), `${service}.${n} on ${broker.nodeID}`)])),
        // who sent each chain.block this service received (the real indexer sends them, and handles none)
        events:
          service === "indexer"
            ? {}
            : { "chain.block": (ctx: Context) => void blocks.push(`${String(ctx.nodeID).split(".")[0]} to ${service}`) },
      });
      return broker;
    };
    const all = Object.fromEntries(SERVICE_NAMES.map((service) => [service, standIn(service)]));
    await Promise.all(Object.values(all).map((b) => b.start()));
    const gateway = all.gateway as ServiceBroker;
    await gateway.waitForServices([...SERVICE_NAMES], 20_000);
    expect(await gateway.call("tx-builder.build")).to.match(/^tx-builder\.build on tx-builder\.cert-anchor-tx-builder-pod$/);
    expect(await gateway.call("verifier.byHash")).to.equal("verifier.byHash on verifier.cert-anchor-verifier-pod");
    // what the library may do, the gateway may not: its request is dropped by nats-server and times out
    expect(await (all.library as ServiceBroker).call("tx-builder.upgrade")).to.match(/^tx-builder\.upgrade on /);
    calls.length = 0;
    const refused = await gateway.call("tx-builder.upgrade", {}, { timeout: 1_500, retries: 0 }).then(
      () => undefined,
      (err: { type?: string }) => err,
    );
    expect(refused?.type).to.equal("REQUEST_TIMEOUT");
    expect(calls).to.deep.equal([]);
    // every backend reaches every other backend's actions; the calendar reaches the indexer, and the gateway it
    for (const from of BACKENDS)
      expect(await (all[from] as ServiceBroker).call("stats.probe"), from).to.equal("stats.probe on stats.cert-anchor-stats-pod");
    expect(await (all.calendar as ServiceBroker).call("indexer.status")).to.equal("indexer.status on indexer.cert-anchor-indexer-pod");
    expect(await gateway.call("calendar.submit")).to.equal("calendar.submit on calendar.cert-anchor-calendar-pod");
    // the indexer's chain.block reaches every service; a tx-builder's reaches none
    const txBuilder = all["tx-builder"] as ServiceBroker;
    await txBuilder.broadcast("chain.block", {});
    // once the server has answered the tx-builder's round trip it has dealt with its events: before the indexer's
    await (txBuilder.transit?.tx as unknown as { client: NatsConnection }).client.flush();
    await (all.indexer as ServiceBroker).broadcast("chain.block", {});
    const receivers = SERVICE_NAMES.filter((s) => s !== "indexer");
    await pollFor(() => blocks.filter((b) => b.startsWith("indexer ")).length === receivers.length);
    // the tx-builder's own handler ran in its process; no other service heard it
    expect([...blocks].sort()).to.deep.equal([...receivers.map((s) => `indexer to ${s}`), "tx-builder to tx-builder"].sort());

    // The published contract over the indexer's own Moleculer connection: an outside service, connected as the
    // observer, receives the indexer's chain.block as plain JSON; what a tx-builder would publish there is dropped.
    const observer = await connect({
      servers: servers(),
      reconnect: false,
      user: OBSERVER_NATS_USER,
      pass: secretData[`nats-password-${OBSERVER_NATS_USER}`],
    });
    clients.push(observer);
    const payloads: unknown[] = [];
    observer.subscribe(publishedSubject(namespace, "chain.block"), {
      callback: (err, msg) => void (err === null ? payloads.push(msg.json()) : undefined),
    });
    await observer.flush();
    const quiet = { info: () => undefined, warn: () => undefined } as unknown as ServiceBroker["logger"];
    chainEventPublisher(txBuilder, namespace, quiet)?.publish("chain.block", { ...CHAIN_BLOCK.example, height: 1 });
    await (txBuilder.transit?.tx as unknown as { client: NatsConnection }).client.flush();
    chainEventPublisher(all.indexer as ServiceBroker, namespace, quiet)?.publish("chain.block", CHAIN_BLOCK.example);
    await pollFor(() => payloads.length === 1);
    expect(payloads).to.deep.equal([CHAIN_BLOCK.example]);
  });
});

/** Resolves once `done()` holds (checked every 20 ms), or fails after 10 s. */
async function pollFor(done: () => boolean): Promise<void> {
  const until = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > until) throw new Error("condition not reached in 10 s");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("deploy/Dockerfile", function () {
  const dockerfile = readFileSync(join(ROOT, "deploy", "Dockerfile"), "utf8");
  const instructions = dockerfile.split("\n").filter((l) => /^[A-Z]+\s/.test(l));

  it("builds on node:24-slim in two stages and installs only production dependencies in the runtime stage", function () {
    expect(instructions.filter((l) => l.startsWith("FROM"))).to.deep.equal(["FROM node:24-slim AS build", "FROM node:24-slim AS runtime"]);
    const runtime = dockerfile.slice(dockerfile.indexOf("AS runtime"));
    expect(runtime).to.match(/npm ci --omit=dev/);
    expect(dockerfile.slice(0, dockerfile.indexOf("AS runtime"))).to.match(/npm run build/);
  });

  it("runs as a non-root user and starts the compiled start script that exists in the sources", function () {
    const user = instructions.filter((l) => l.startsWith("USER"));
    expect(user).to.have.length(1);
    expect(user[0]).to.not.match(/\broot\b|\s0(:|$)/);
    const cmd = instructions.find((l) => l.startsWith("CMD")) as string;
    const [, script] = JSON.parse(cmd.slice(4)) as string[];
    expect(script).to.equal("dist/scripts/start.js");
    expect(existsSync(join(ROOT, (script as string).replace(/^dist\//, "").replace(/\.js$/, ".ts")))).to.equal(true);
  });

  it("copies every source folder that tsconfig.build.json compiles", function () {
    const build = JSON.parse(readFileSync(join(ROOT, "tsconfig.build.json"), "utf8")) as { include: string[] };
    const copied = instructions.filter((l) => l.startsWith("COPY")).join("\n");
    for (const source of build.include) expect(copied, source).to.include(source);
  });
});
