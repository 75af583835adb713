// Static checks of deploy/: every manifest parses, each of the thirteen services has exactly one Deployment
// wired the way the code expects (SERVICES, probes on HEALTH_PORT, metrics annotations, secrets, resources,
// grace period), and the HPAs, Services, kustomization and Dockerfile point at things that exist.
import { expect } from "chai";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parseAllDocuments } from "yaml";
import { ENV_VARS } from "../../shared/mesh/config";
import { SERVICE_NAMES } from "../../shared/mesh/service-names";

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

describe("deploy/k8s manifests", function () {
  it("every file parses as YAML without errors and every document has apiVersion, kind and a name", function () {
    expect(files.length).to.be.greaterThan(5);
    for (const file of files) {
      for (const doc of parseAllDocuments(readFileSync(file, "utf8"))) {
        expect(doc.errors.map((e) => e.message), file).to.deep.equal([]);
      }
    }
    for (const m of manifests) {
      if (m.kind === "Kustomization") continue;
      expect(m.apiVersion, m.file).to.be.a("string");
      expect(m.kind, m.file).to.be.a("string");
      expect(m.metadata?.name, m.file).to.be.a("string");
    }
  });

  it("has exactly one Deployment per service, selected by SERVICES, for all thirteen services", function () {
    const named = serviceDeployments.map(servicesEnv);
    expect([...named].sort()).to.deep.equal([...SERVICE_NAMES].sort());
    for (const d of serviceDeployments) {
      const service = servicesEnv(d);
      expect(service.split(","), d.metadata.name).to.have.length(1);
      expect(d.metadata.name).to.equal(`cert-anchor-${service}`);
      expect(specOf(d).selector.matchLabels).to.deep.equal({ "app.kubernetes.io/name": "cert-anchor", "app.kubernetes.io/component": service });
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
      expect(c.envFrom?.map((e) => e.configMapRef?.name), d.metadata.name).to.deep.equal(["cert-anchor-config"]);
      expect(envOf(d, "MONGO_URL")?.valueFrom?.secretKeyRef).to.deep.include({ name: "cert-anchor-secrets", key: "mongo-url" });
      for (const e of c.env ?? []) {
        if (["MONGO_URL", "ADMIN_API_KEY", "SERVICE_MNEMONIC", "SERVICE_SIGNING_KEY"].includes(e.name)) {
          expect(e.value, `${d.metadata.name} ${e.name}`).to.equal(undefined);
        }
        const ref = e.valueFrom?.secretKeyRef;
        if (ref !== undefined) expect(secretKeys, `${d.metadata.name} ${e.name}`).to.include(ref.key);
      }
    }
    const gateway = serviceDeployments.find((d) => servicesEnv(d) === "gateway") as Manifest;
    expect(envOf(gateway, "ADMIN_API_KEY")?.valueFrom?.secretKeyRef).to.deep.include({ key: "admin-api-key", optional: false });
  });

  it("the ConfigMap only sets variables the code knows, and points TRANSPORTER at the NATS Service", function () {
    const known = new Set(ENV_VARS.map((v) => v.name));
    const keys = Object.keys(configMap?.data ?? {});
    expect(keys.filter((k) => !known.has(k))).to.deep.equal([]);
    for (const secret of ENV_VARS.filter((v) => v.secret === true)) expect(keys, secret.name).to.not.include(secret.name);
    expect(configMap?.data?.TRANSPORTER).to.equal("nats://nats:4222");
    const nats = ofKind("Service").find((s) => s.metadata.name === "nats");
    expect((nats?.spec?.ports as { port: number }[]).map((p) => p.port)).to.include(4222);
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
