// Static checks of deploy/: every manifest parses and is valid against the Kubernetes API schema of its kind
// (kubernetes-models, unknown fields included), each of the thirteen services has exactly one Deployment
// wired the way the code expects (SERVICES, probes on HEALTH_PORT, metrics annotations, secrets, resources,
// grace period), the HPAs, Services, kustomization and Dockerfile point at things that exist, and NATS accepts only
// clients with the credentials of the Secret (checked statically, then against a real nats-server).
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ServiceBroker, type BrokerOptions } from "moleculer";
import { connect } from "nats";
import { parseAllDocuments } from "yaml";
import { createBrokerOptions } from "../../moleculer.config";
import { requireNatsServer } from "../../fixtures/processes/nats-server";
import { describeConfig, ENV_VARS, loadConfig } from "../../shared/config/config";
import { SERVICE_NAMES } from "../../shared/config/service-names";

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
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  securityContext?: { allowPrivilegeEscalation?: boolean };
}
interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: { containers: Container[]; terminationGracePeriodSeconds?: number; securityContext?: { runAsNonRoot?: boolean } };
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

/** The Secret the README tells operators to create: the template's keys, NATS password as `openssl rand -hex 24`. */
const exampleSecretData = (): Record<string, string> => ({
  ...secretTemplate.stringData,
  "nats-password": randomBytes(24).toString("hex"),
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

  it("has exactly one Deployment per service, selected by SERVICES, for all thirteen services", function () {
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
        if (["MONGO_URL", "ADMIN_API_KEY", "SERVICE_MNEMONIC", "SERVICE_SIGNING_KEY", "NATS_USER", "NATS_PASSWORD"].includes(e.name)) {
          expect(e.value, `${d.metadata.name} ${e.name}`).to.equal(undefined);
        }
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

  it("every service Deployment builds TRANSPORTER from the NATS user and password in the Secret", function () {
    const natsService = ofKind("Service").find((s) => s.metadata.name === "nats") as Manifest;
    const clientPort = (natsService.spec?.ports as { name: string; port: number }[]).find((p) => p.name === "client")?.port;
    expect(clientPort).to.equal(4222);
    const secretData = exampleSecretData();
    for (const d of serviceDeployments) {
      const name = d.metadata.name;
      expect(envOf(d, "NATS_USER")?.valueFrom?.secretKeyRef, name).to.deep.equal({ name: SECRET, key: "nats-user" });
      expect(envOf(d, "NATS_PASSWORD")?.valueFrom?.secretKeyRef, name).to.deep.equal({ name: SECRET, key: "nats-password" });
      expect(envOf(d, "TRANSPORTER")?.value, name).to.equal(`nats://$(NATS_USER):$(NATS_PASSWORD)@nats:${clientPort}`);
      // As the kubelet renders it: credentials substituted (so both are listed before TRANSPORTER), host = NATS Service.
      const env = renderEnv(d, secretData);
      const url = new URL(env.TRANSPORTER ?? "");
      expect([url.protocol, url.username, url.password, url.hostname, url.port], name).to.deep.equal([
        "nats:",
        secretData["nats-user"],
        secretData["nats-password"],
        natsService.metadata.name,
        String(clientPort),
      ]);
      // The code accepts the rendered environment and never shows the password.
      const config = loadConfig(env);
      expect(config.transporter, name).to.equal(env.TRANSPORTER);
      expect(JSON.stringify(describeConfig(config)), name).to.not.include(secretData["nats-password"]);
    }
  });

  it("NATS requires the user and password from the Secret and publishes only its client port", function () {
    const c = containerOf(natsDeployment);
    expect(envOf(natsDeployment, "NATS_USER")?.valueFrom?.secretKeyRef).to.deep.equal({ name: SECRET, key: "nats-user" });
    expect(envOf(natsDeployment, "NATS_PASSWORD")?.valueFrom?.secretKeyRef).to.deep.equal({ name: SECRET, key: "nats-password" });
    const args = c.args ?? [];
    const flag = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
    expect([flag("--user"), flag("--pass")]).to.deep.equal(["$(NATS_USER)", "$(NATS_PASSWORD)"]);
    expect(args.filter((a) => ["--auth", "--config", "-c", "--no_auth_user"].includes(a))).to.deep.equal([]);
    expect(flag("--port")).to.equal("4222");
    const service = ofKind("Service").find((s) => s.metadata.name === "nats") as Manifest;
    expect(service.spec?.ports).to.deep.equal([{ name: "client", port: 4222, targetPort: "client" }]);
    expect(c.ports?.find((p) => p.name === "client")?.containerPort).to.equal(4222);
  });

  it("the Secret template has URL-safe NATS credentials and its kubectl line creates every key", function () {
    const keys = Object.keys(secretTemplate.stringData ?? {});
    expect(keys).to.include.members(["nats-user", "nats-password"]);
    for (const key of ["nats-user", "nats-password"]) expect(secretTemplate.stringData?.[key], key).to.match(/^[A-Za-z0-9._-]+$/);
    const created = (text: string): string[] => [...text.matchAll(/--from-literal=([a-z-]+)=/g)].map((m) => m[1] as string);
    const template = readFileSync(join(K8S, "secret.example.yaml"), "utf8");
    expect(created(template).sort(), "secret.example.yaml").to.deep.equal([...keys].sort());
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
        expect(peer.podSelector, "namespaceSelector combined with podSelector").to.equal(undefined);
        return `namespace ${JSON.stringify(peer.namespaceSelector.matchLabels)}`;
      }
      const pods = selected(peer.podSelector ?? {}).sort();
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
    const expected: Record<string, string[]> = { nats: [`${natsPort} from the service pods`] };
    for (const d of serviceDeployments)
      expect(containerOf(d).ports?.find((p) => p.name === "metrics")?.containerPort).to.equal(metricsPort);
    for (const name of serviceNames)
      expected[name] = name === gateway.metadata.name ? [`${httpPort} from anywhere`, metrics].sort() : [metrics];
    expect(accepted).to.deep.equal(expected);
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

/** nats-server on a loopback port it picks itself, with `args` added; resolves once it accepts clients. */
function startNats(args: string[]): Promise<{ port: number; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.env.NATS_SERVER_BIN ?? "nats-server", ["-a", "127.0.0.1", "-p", "-1", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
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

describe("deploy/k8s NATS authentication against a real nats-server", function () {
  let nats: { port: number; child: ChildProcess } | undefined;
  const brokers: ServiceBroker[] = [];
  const secretData = exampleSecretData();

  before(async function () {
    requireNatsServer(this);
    // nats.yaml's arguments as the kubelet expands them, less the fixed ports (a loopback port of its own here).
    const vars = renderEnv(natsDeployment, secretData);
    const args = (containerOf(natsDeployment).args ?? []).map((a) => expandRefs(a, vars));
    const withoutPorts = args.filter(
      (a, i) => !["--port", "--http_port"].includes(a) && !["--port", "--http_port"].includes(args[i - 1] ?? ""),
    );
    expect(withoutPorts).to.deep.equal(["--user", secretData["nats-user"], "--pass", secretData["nats-password"]]);
    nats = await startNats(withoutPorts);
  });

  after(async function () {
    for (const b of brokers) await b.stop();
    if (nats !== undefined && nats.child.exitCode === null) {
      const exited = new Promise((done) => nats?.child.once("exit", done));
      nats.child.kill("SIGTERM");
      await exited;
    }
  });

  /**
   * The broker options the start script builds in a service's pod (its rendered environment through loadConfig and
   * createBrokerOptions), with TRANSPORTER pointed at the local server instead of `nats` and local ports.
   */
  const brokerOptionsOf = (service: string, namespace: string): BrokerOptions => {
    const env = renderEnv(serviceDeployments.find((x) => servicesEnv(x) === service) as Manifest, secretData);
    const url = new URL(env.TRANSPORTER ?? "");
    url.hostname = "127.0.0.1";
    url.port = String(nats?.port);
    const local = { HOST: "127.0.0.1", HEALTH_PORT: "0", ENABLE_METRICS: "false", LOG_LEVEL: "silent", NODE_ID: service };
    const config = loadConfig({ ...env, ...local, NAMESPACE: namespace, TRANSPORTER: url.toString() });
    return createBrokerOptions(config, { overrides: { skipProcessEventRegistration: true } });
  };

  it("refuses clients without the Secret's credentials and accepts them with it", async function () {
    const servers = `127.0.0.1:${nats?.port}`;
    const attempts = [{}, { user: secretData["nats-user"], pass: "wrong-password" }, { token: secretData["nats-password"] }];
    for (const auth of attempts) {
      const error = await connect({ servers, reconnect: false, ...auth }).then(
        async (nc) => (await nc.close(), undefined),
        (err: Error) => err,
      );
      expect(error?.message, JSON.stringify(auth)).to.match(/authorization/i);
    }
    const nc = await connect({ servers, reconnect: false, user: secretData["nats-user"], pass: secretData["nats-password"] });
    await nc.close();
  });

  it("carries calls between two services whose brokers use their Deployments' TRANSPORTER", async function () {
    const namespace = `deploy-${randomUUID()}`;
    const start = async (service: string, schema?: { name: string; actions: Record<string, () => string> }): Promise<ServiceBroker> => {
      const broker = new ServiceBroker(brokerOptionsOf(service, namespace));
      brokers.push(broker);
      if (schema) broker.createService(schema);
      await broker.start();
      return broker;
    };
    this.timeout(20_000);
    await start("verifier", { name: "probe", actions: { where: () => "verifier" } });
    const gateway = await start("gateway");
    await gateway.waitForServices(["probe"], 10_000);
    expect(await gateway.call("probe.where")).to.equal("verifier");
  });
});

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
